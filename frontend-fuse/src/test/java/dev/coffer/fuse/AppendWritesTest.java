package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write on a handle opened with O_APPEND goes to the file's end whatever offset the kernel sent (it
 * may have a stale size: DeferredEnospcMountTest); a page of a shared mapping written back through
 * such a handle (the kernel picks any writable handle of the file in writeback-cache mounts) goes to
 * its own offset. No mount: FileOps over a plain folder.
 */
class AppendWritesTest {
    private static final int O_WRONLY = 01;
    private static final int O_RDWR = 02;
    private static final int O_APPEND = 02000;

    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();

    @Test
    void anAppendHandleWritesAtTheEndAndAPageWriteBackWhereItBelongs() throws Exception {
        Files.writeString(tmp.resolve("log.txt"), "0123456789");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long append = files.open("/log.txt", O_WRONLY | O_APPEND);
        long plain = files.open("/log.txt", O_RDWR);

        files.write(append, bytes("AB"), 2, 100, false); // a stale offset far past the end
        files.write(append, bytes("CD"), 2, 3, false); // and one inside the file
        files.write(append, bytes("xy"), 2, 4, true); // a page written back: its own place
        files.write(plain, bytes("z"), 1, 0, false); // not an append handle: where it is told

        files.release(append);
        files.release(plain);
        assertThat(Files.readString(tmp.resolve("log.txt"))).isEqualTo("z123xy6789ABCD");
    }

    private static Pointer bytes(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        Pointer p = Memory.allocateDirect(Runtime.getSystemRuntime(), b.length);
        p.put(0, b, 0, b.length);
        return p;
    }
}
