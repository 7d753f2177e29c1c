package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.testing.DelegatingChannel;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncate that grows a file keeps what a write made meanwhile: the grow looked at the size, then
 * wrote a zero at the new end, and a write landing between the two (another handle, another thread)
 * lost its byte there. No mount: FileOps over a plain folder, with the write made to land in that
 * window (the channel's size() starts it and gives it time to finish).
 */
class GrowingTruncateTest {
    private static final int O_RDWR = 02;

    @TempDir
    Path tmp;

    private final OpenFileTable handles = new OpenFileTable();

    @Test
    void aWriteAtTheNewEndDuringAGrowingTruncateIsKept() throws Exception {
        Files.writeString(tmp.resolve("f"), "0123");
        FileOps files = new FileOps(new Backing(tmp, 0, 0), handles, new ContentChanges());
        long writer = files.open("/f", O_RDWR);
        CompletableFuture<Void> write = new CompletableFuture<>();
        FileChannel real = FileChannel.open(tmp.resolve("f"), StandardOpenOption.READ, StandardOpenOption.WRITE);
        long truncater = handles.add(new DelegatingChannel(real) {
            private boolean first = true;

            @Override
            public long size() throws IOException {
                long size = super.size();
                if (first) {
                    first = false;
                    CompletableFuture.runAsync(() -> {
                        try {
                            files.write(writer, bytes("ABCD"), 4, 8, false); // covers the new end, 10
                            write.complete(null);
                        } catch (IOException e) {
                            write.completeExceptionally(e);
                        }
                    });
                    try {
                        write.get(500, TimeUnit.MILLISECONDS); // fixed: it waits for the truncate instead
                    } catch (TimeoutException | InterruptedException | java.util.concurrent.ExecutionException e) {
                        // the write goes on after the truncate
                    }
                }
                return size;
            }
        }, true);

        files.ftruncate(truncater, 10);
        write.get(10, TimeUnit.SECONDS);

        files.release(truncater);
        files.release(writer);
        assertThat(Files.readString(tmp.resolve("f"))).isEqualTo("0123\0\0\0\0ABCD");
    }

    private static Pointer bytes(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Pointer p = Memory.allocateDirect(Runtime.getSystemRuntime(), b.length);
        p.put(0, b, 0, b.length);
        return p;
    }
}
