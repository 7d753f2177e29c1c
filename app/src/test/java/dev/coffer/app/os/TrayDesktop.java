package dev.coffer.app.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A desktop with a system tray for the tray tests: Xvfb on the display that this JVM's {@code
 * DISPLAY} names (AWT reads only the environment, so app/pom.xml gives the test JVMs {@code
 * DISPLAY=${coffer.it.display}}, by default {@code :97}), and trayer, a real freedesktop tray host,
 * on it. Asks X ({@code xwininfo}) what is embedded in the tray. A missing program or a display in
 * use is a failure saying what to do. Both end with the test JVM, not before: AWT ends the whole
 * process (exit 1) when its X server goes away, so each runs under a shell that kills it once this
 * JVM's end closes the shell's stdin.
 *
 * <p>Not responsible for the app's tray icon ({@link Tray}).
 */
public final class TrayDesktop {
    private final String display;
    private final List<Process> processes = new ArrayList<>();

    private TrayDesktop(String display) {
        this.display = display;
    }

    /** Starts Xvfb and trayer on {@code $DISPLAY}; {@code logs} gets their output. */
    public static TrayDesktop start(Path logs) throws IOException, InterruptedException {
        String display = System.getenv("DISPLAY");
        if (display == null || !display.matches(":\\d+")) {
            throw new AssertionError("the tray tests need DISPLAY=:N in their environment (app/pom.xml sets it from "
                    + "-Dcoffer.it.display, default :97), not " + display);
        }
        for (String[] need : new String[][] {{"/usr/bin/Xvfb", "xvfb"}, {"/usr/bin/trayer", "trayer"},
                {"/usr/bin/xwininfo", "x11-utils"}}) {
            if (!Files.isExecutable(Path.of(need[0]))) {
                throw new AssertionError("the tray tests need " + need[0] + " (Debian package " + need[1]
                        + "): run scripts/test.sh, which installs it");
            }
        }
        String number = display.substring(1);
        if (Files.exists(Path.of("/tmp/.X" + number + "-lock"))) {
            throw new AssertionError("display " + display + " is in use by another X server: run the tests with "
                    + "-Dcoffer.it.display=:NN naming a free one");
        }
        TrayDesktop d = new TrayDesktop(display);
        try {
            Files.createDirectories(logs);
            d.processes.add(tiedToThisJvm(logs.resolve("xvfb.log"), "Xvfb", display, "-screen", "0", "1280x800x24",
                    "-nolisten", "tcp"));
            d.await("Xvfb on " + display, () -> Files.exists(Path.of("/tmp/.X11-unix/X" + number)));
            d.processes.add(tiedToThisJvm(logs.resolve("trayer.log"), "trayer", "--edge", "top", "--align", "right",
                    "--widthtype", "request", "--height", "24"));
            d.await("trayer's panel", () -> d.xwininfo("-root", "-tree").contains("\"panel\": (\"panel\" \"trayer\")"));
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            for (Process p : d.processes) {
                p.getOutputStream().close(); // its shell ends it (nothing of AWT is connected yet)
            }
            throw e;
        }
        return d;
    }

    /** Runs {@code command} under a shell that kills it when its stdin (held open by this JVM) closes. */
    private static Process tiedToThisJvm(Path log, String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "\"$@\" >\"$COFFER_LOG\" 2>&1 & child=$!; read -r _; kill $child; wait $child", "tied"));
        cmd.addAll(List.of(command));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("COFFER_LOG", log.toString());
        return pb.start(); // its stdin stays open until this JVM ends
    }

    /** The windows embedded in trayer's panel, as {@code xwininfo -tree} lists them. */
    public String trayContents() throws IOException, InterruptedException {
        String tree = xwininfo("-root", "-tree");
        String panelLine = tree.lines().filter(l -> l.contains("\"panel\": (\"panel\" \"trayer\")")).findFirst()
                .orElseThrow(() -> new AssertionError("trayer's panel is gone:\n" + tree));
        String id = panelLine.strip().split("\\s+")[0];
        return xwininfo("-tree", "-id", id);
    }

    private String xwininfo(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("xwininfo", "-display", display));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    private void await(String what, HelperProcesses.Check check) throws IOException, InterruptedException {
        HelperProcesses.await(what, processes, "", check);
    }
}
