package dev.coffer.webdav;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the operating system's mount tools: with no input (they must never wait for a prompt) or
 * with a given input that is then closed (a credential they prompt for: on a pipe, never on the
 * command line or in the environment), a time limit, and their output kept for the error message.
 * A command that outlives its limit is killed together with the processes it started.
 *
 * <p>Not responsible for choosing the tool ({@link OsMount}).
 */
final class Commands {
    static final long TIMEOUT_SECONDS = 60;
    /** How long a killed command and its children get to be gone. */
    static final long KILL_WAIT_SECONDS = 5;

    private Commands() {}

    /** Runs {@code command}; returns its output, or throws with it if the command failed or hung. */
    static String run(List<String> command) throws IOException {
        return run(command, java.util.Map.of());
    }

    /** Runs {@code command} with {@code environment} added to this process's environment; as {@link #run(List)}. */
    static String run(List<String> command, java.util.Map<String, String> environment) throws IOException {
        return run(command, environment, null, TIMEOUT_SECONDS);
    }

    /**
     * As {@link #run(List, java.util.Map)}, with {@code input} written to the command's standard input
     * (then closed; null: no input) and a time limit of {@code timeoutSeconds}.
     */
    static String run(List<String> command, java.util.Map<String, String> environment, byte[] input, long timeoutSeconds)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(input == null ? ProcessBuilder.Redirect.from(devNull()) : ProcessBuilder.Redirect.PIPE);
        pb.environment().putAll(environment);
        Process p = pb.start();
        if (input != null) {
            try (OutputStream stdin = p.getOutputStream()) {
                stdin.write(input);
            } catch (IOException e) {
                // it ended without reading its input; its exit status and output say why
            }
        }
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                destroyWithDescendants(p);
                throw new IOException(command.get(0) + " did not finish within " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            destroyWithDescendants(p);
            Thread.currentThread().interrupt();
            throw new IOException(command.get(0) + " was interrupted", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IOException(command.get(0) + " failed (exit " + p.exitValue() + ")" + (out.isEmpty() ? "" : ": " + out));
        }
        return out;
    }

    /**
     * Kills {@code p} and every process it started (util-linux {@code mount} runs {@code mount.davfs}
     * as a child, which could otherwise mount later, holding the password), then waits up to
     * {@value #KILL_WAIT_SECONDS} s for them to be gone, so that a check for a late mount afterwards
     * sees the final state. Keeps the caller's interrupt status.
     */
    static void destroyWithDescendants(Process p) {
        List<ProcessHandle> descendants = p.descendants().toList(); // before p dies and they are reparented
        descendants.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(KILL_WAIT_SECONDS);
        List<ProcessHandle> all = new java.util.ArrayList<>(descendants);
        all.add(p.toHandle());
        for (ProcessHandle h : all) {
            while (true) {
                try {
                    h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // wait on regardless: the kill must be complete before the caller checks
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
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
