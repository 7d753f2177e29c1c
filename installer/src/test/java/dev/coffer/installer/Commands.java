package dev.coffer.installer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Test helper: runs a command with a time limit and returns its exit code and combined output. */
final class Commands {
    private Commands() {
    }

    record Result(int exitCode, String output) {
        Result expectSuccess(String what) {
            if (exitCode != 0) {
                throw new AssertionError(what + " failed with exit code " + exitCode + ":\n" + output);
            }
            return this;
        }
    }

    static Result run(long timeoutSeconds, String... command) throws IOException, InterruptedException {
        return run(timeoutSeconds, Map.of(), null, command);
    }

    static Result run(long timeoutSeconds, Map<String, String> env, Path dir, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(asRoot(command)).redirectErrorStream(true);
        pb.environment().putAll(env);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        p.getOutputStream().close();
        byte[][] out = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = ("(output unreadable: " + e + ")").getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
        }
        reader.join();
        return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
    }

    /** dpkg needs root: as another user the package commands go through sudo (which must not ask). */
    private static List<String> asRoot(String... command) {
        List<String> cmd = new ArrayList<>(List.of(command));
        boolean needsRoot = command[0].equals("dpkg");
        if (needsRoot && !"root".equals(System.getProperty("user.name"))) {
            cmd.add(0, "-n");
            cmd.add(0, "sudo");
        }
        return cmd;
    }
}
