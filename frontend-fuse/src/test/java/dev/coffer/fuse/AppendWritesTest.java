package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append (a write whose request carries O_APPEND) goes to the end of the handle's file, wherever the
 * kernel sends it: the kernel's size may be stale, too large (DeferredEnospcMountTest) or too small
 * (a sync client replaced the file under the open handle and a stat gave the kernel the other file's
 * size); any write without O_APPEND (a page written back, a pwrite after fcntl cleared the flag) goes
 * where the kernel says. No mount: FileOps over a plain folder.
 */
class AppendWritesTest {
    private static final int O_RDWR = 02;

    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();

    @Test
    void anAppendLandsAtTheEndAndEveryOtherWriteWhereItIsSent() throws Exception {
        Files.writeString(tmp.resolve("log.txt"), "0123456789");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long fh = files.open("/log.txt", O_RDWR | OpenFlagBits.LINUX.append());

        files.write(fh, bytes("AB"), 2, 100, true); // a stale offset far past the end
        files.write(fh, bytes("CD"), 2, 12, true); // the end as the kernel knows it
        files.write(fh, bytes("xy"), 2, 4, true); // a stale offset inside the file
        files.write(fh, bytes("z"), 1, 0, false); // no O_APPEND in this request

        files.release(fh);
        assertThat(Files.readString(tmp.resolve("log.txt"))).isEqualTo("z123456789ABCDxy");
    }

    /**
     * The review's case: a sync client replaced the file under an open O_APPEND descriptor, and a stat
     * of the name gave the kernel the new file's smaller size, at which it sent the next append. It
     * went into the handle's own file there, over the earlier appends.
     */
    @Test
    void anAppendAfterTheFileWasReplacedUnderTheHandleLandsAtTheEndOfTheHandlesFile() throws Exception {
        Path log = Files.writeString(tmp.resolve("log.txt"), "base\n");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long fh = files.open("/log.txt", O_RDWR | OpenFlagBits.LINUX.append());
        files.write(fh, bytes("local1\n"), 7, 5, true);
        Files.move(Files.writeString(tmp.resolve("synced"), "base\n"), log, StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);

        files.write(fh, bytes("local2\n"), 7, 5, true); // the kernel's offset: the synced file's size
        files.write(fh, bytes("local3\n"), 7, 12, true);

        ByteBuffer held = ByteBuffer.allocate(64);
        handles.get(fh).read(held, 0);
        files.release(fh);
        assertThat(new String(held.array(), 0, held.position(), StandardCharsets.US_ASCII))
                .isEqualTo("base\nlocal1\nlocal2\nlocal3\n");
        assertThat(Files.readString(log)).as("the synced file is untouched").isEqualTo("base\n");
    }

    private static Pointer bytes(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        Pointer p = Memory.allocateDirect(Runtime.getSystemRuntime(), b.length);
        p.put(0, b, 0, b.length);
        return p;
    }
}
