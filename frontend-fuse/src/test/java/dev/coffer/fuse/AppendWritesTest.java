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
 * An append (a write whose request carries O_APPEND) at an offset past the file's end goes to the end:
 * the kernel may have a stale size (DeferredEnospcMountTest); an append inside the file, and any write
 * without O_APPEND (a page written back, a pwrite after fcntl cleared the flag), goes where the kernel
 * says. No mount: FileOps over a plain folder.
 */
class AppendWritesTest {
    private static final int O_RDWR = 02;

    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();

    @Test
    void anAppendPastTheEndLandsAtTheEndAndEveryOtherWriteWhereItIsSent() throws Exception {
        Files.writeString(tmp.resolve("log.txt"), "0123456789");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long fh = files.open("/log.txt", O_RDWR | OpenFlagBits.LINUX.append());

        files.write(fh, bytes("AB"), 2, 100, true); // a stale offset far past the end
        files.write(fh, bytes("CD"), 2, 12, true); // the end as the kernel knows it
        files.write(fh, bytes("xy"), 2, 4, true); // inside the file: trusted
        files.write(fh, bytes("z"), 1, 0, false); // no O_APPEND in this request

        files.release(fh);
        assertThat(Files.readString(tmp.resolve("log.txt"))).isEqualTo("z123xy6789ABCD");
    }

    private static Pointer bytes(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        Pointer p = Memory.allocateDirect(Runtime.getSystemRuntime(), b.length);
        p.put(0, b, 0, b.length);
        return p;
    }
}
