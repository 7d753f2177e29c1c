package dev.coffer.core.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: a small tmpfs mounted on a folder (the tests run as root, as CI does), to make a
 * full disk or a read-only ciphertext folder real ({@link #fill}, {@link #leaveFree}). Mounting
 * failures fail the test with the command's output; {@link #close} unmounts (lazily if still busy).
 */
public final class TmpfsMount implements AutoCloseable {
    private final Path dir;

    private TmpfsMount(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code megabytes} MiB on {@code dir} (created if missing). */
    public static TmpfsMount mount(Path dir, int megabytes) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m,mode=0755", "tmpfs", dir.toString());
        return new TmpfsMount(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Remounts it read-only: even root cannot write then. */
    public void remountReadOnly() throws IOException, InterruptedException {
        run("mount", "-o", "remount,ro", dir.toString());
    }

    /** Fills this tmpfs to its last page with a file {@code name} in its root; returns that file. */
    public Path fill(String name) throws IOException {
        Path ballast = dir.resolve(name);
        byte[] chunk = new byte[1 << 20];
        try (FileChannel b = FileChannel.open(ballast, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int size = chunk.length; size >= 512; ) {
                try {
                    b.write(ByteBuffer.wrap(chunk, 0, size));
                } catch (IOException e) {
                    if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
                        throw e;
                    }
                    size /= 2;
                }
            }
        }
        return ballast;
    }

    /** Fills this tmpfs with a file {@code name}, then gives {@code bytes} back (a multiple of 4096). */
    public Path leaveFree(String name, int bytes) throws IOException {
        Path ballast = fill(name);
        try (FileChannel b = FileChannel.open(ballast, StandardOpenOption.WRITE)) {
            b.truncate(b.size() / 4096 * 4096 - bytes);
        }
        return ballast;
    }

    public void remountWritable() throws IOException, InterruptedException {
        run("mount", "-o", "remount,rw", dir.toString());
    }

    @Override
    public void close() throws IOException {
        try {
            try {
                run("umount", dir.toString());
            } catch (IOException e) {
                run("umount", "-l", dir.toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + dir, e);
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(List.of(command) + " failed (tests that mount a tmpfs must run as root): " + out.strip());
        }
    }
}
