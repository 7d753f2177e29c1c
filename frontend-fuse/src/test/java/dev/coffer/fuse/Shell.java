package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Test helper: runs an ordinary tool (cp, tar, git...) in a folder and returns what it printed. */
final class Shell {
    /** A finished command: its exit code and its stdout and stderr together. */
    record Result(int exit, String output) {}

    private Shell() {}

    /** Runs {@code command} in {@code dir}; fails the test unless it exits 0. */
    static String ok(Path dir, String... command) throws IOException, InterruptedException {
        Result r = run(dir, command);
        assertThat(r.exit()).as("%s exited %d: %s", List.of(command), r.exit(), r.output()).isZero();
        return r.output();
    }

    /** Runs a {@code sh -c} script in {@code dir}; fails the test unless it exits 0. */
    static String sh(Path dir, String script) throws IOException, InterruptedException {
        return ok(dir, "sh", "-c", script);
    }

    static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = start(dir, command);
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(List.of(command) + " did not finish");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** Starts {@code command} in {@code dir} as {@link #run} does, for a caller that feeds its stdin. */
    static Process start(Path dir, String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C.UTF-8");
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("HOME", dir.toString());
        return pb.start();
    }
}
