package dev.coffer.fuse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Unmounts through {@code fusermount -u}, which works for the user who mounted (root or not), and
 * tells a busy mount apart from other failures. A lazy unmount ({@code -z}) detaches the mount at
 * once; programs with open files keep them until they close them.
 *
 * <p>Not responsible for waiting until the session has ended ({@link FuseMount} does).
 */
final class Fusermount {
    private static final long TIMEOUT_SECONDS = 30;

    private final Path program;

    Fusermount(Path program) {
        this.program = program;
    }

    /** Unmounts {@code mountPoint}; {@link MountBusyException} if it is in use and {@code lazy} is false. */
    void unmount(Path mountPoint, boolean lazy) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(program.toString(), "-u"));
        if (lazy) {
            cmd.add("-z");
        }
        cmd.add("--");
        cmd.add(mountPoint.toAbsolutePath().toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("LC_ALL", "C"); // its message is read ("busy") and would be in the session's language
        Process p = pb.start();
        String err;
        try (InputStream in = p.getErrorStream()) {
            err = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        int exit;
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("fusermount did not finish within " + TIMEOUT_SECONDS + " s");
            }
            exit = p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting", e);
        }
        if (exit != 0) {
            if (err.contains("busy")) {
                throw new MountBusyException(mountPoint);
            }
            throw new IOException("could not unmount " + mountPoint + ": " + err);
        }
    }
}
