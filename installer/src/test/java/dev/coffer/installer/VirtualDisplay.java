package dev.coffer.installer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Test helper: an Xvfb display for the installed GUI, with xdotool to find a window by its title and
 * ImageMagick's import to take a screenshot. Missing tools are a failure, never a skip.
 */
final class VirtualDisplay implements AutoCloseable {
    private final Process xvfb;
    private final String name;

    private VirtualDisplay(Process xvfb, String name) {
        this.xvfb = xvfb;
        this.name = name;
    }

    /** Starts Xvfb on the first free display number from :91. */
    static VirtualDisplay start() throws IOException, InterruptedException {
        for (int n = 91; n < 120; n++) {
            if (Files.exists(Path.of("/tmp/.X11-unix/X" + n)) || Files.exists(Path.of("/tmp/.X" + n + "-lock"))) {
                continue;
            }
            Process p = new ProcessBuilder("Xvfb", ":" + n, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            for (int i = 0; i < 100 && p.isAlive(); i++) {
                if (Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
                    return new VirtualDisplay(p, ":" + n);
                }
                Thread.sleep(100);
            }
            p.destroy();
        }
        throw new AssertionError("Xvfb did not start (install xvfb)");
    }

    String name() {
        return name;
    }

    /** Waits for a window whose title contains {@code title}; returns its window id. */
    String awaitWindow(String title, int timeoutSeconds) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            Commands.Result r = Commands.run(10, Map.of("DISPLAY", name), null, "xdotool", "search", "--name", title);
            if (r.exitCode() == 0 && !r.output().isBlank()) {
                return r.output().trim().lines().findFirst().orElse("");
            }
            Thread.sleep(500);
        }
        String all = Commands.run(10, Map.of("DISPLAY", name), null, "xwininfo", "-root", "-tree").output();
        throw new AssertionError("no window titled \"" + title + "\" within " + timeoutSeconds + " s; windows:\n" + all);
    }

    void screenshot(Path png) throws IOException, InterruptedException {
        Commands.run(30, Map.of("DISPLAY", name), null, "import", "-window", "root", png.toString()).expectSuccess("import");
    }

    @Override
    public void close() {
        xvfb.destroy();
    }
}
