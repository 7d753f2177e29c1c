package dev.coffer.webdav;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the operating system's mount tools: with no input (they must never wait for a prompt), a
 * time limit, and their output kept for the error message.
 *
 * <p>Not responsible for choosing the tool ({@link OsMount}).
 */
final class Commands {
    private static final long TIMEOUT_SECONDS = 60;

    private Commands() {}

    /** Runs {@code command}; returns its output, or throws with it if the command failed or hung. */
    static String run(List<String> command) throws IOException {
        return run(command, java.util.Map.of());
    }

    /** Runs {@code command} with {@code environment} added to this process's environment; as {@link #run(List)}. */
    static String run(List<String> command, java.util.Map<String, String> environment) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(devNull()));
        pb.environment().putAll(environment);
        Process p = pb.start();
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(command.get(0) + " was interrupted", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IOException(command.get(0) + " failed (exit " + p.exitValue() + ")" + (out.isEmpty() ? "" : ": " + out));
        }
        return out;
    }

    /** The first of {@code candidates} that is an executable file. */
    static java.util.Optional<Path> find(String... candidates) {
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    private static java.io.File devNull() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
