package dev.coffer.app;

import dev.coffer.app.os.SingleInstance;
import dev.coffer.app.ui.CofferApp;
import dev.coffer.app.vaults.ConfigFolder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a launch is for the GUI (no arguments on a desktop, or a single path to a vault
 * folder or its vault.coffer, which is what a double-click on vault.coffer runs) and starts it: a
 * running instance gets the path handed over instead, and this process ends.
 *
 * <p>Not responsible for the GUI itself ({@link CofferApp}) or the command line.
 */
final class GuiLauncher {
    private final Map<String, String> env;
    private final Set<String> subcommands;

    GuiLauncher(Map<String, String> env, Set<String> subcommands) {
        this.env = env;
        this.subcommands = subcommands;
    }

    /** True if a graphical session is there to show windows in. */
    boolean hasDisplay() {
        return !env.getOrDefault("DISPLAY", "").isEmpty() || !env.getOrDefault("WAYLAND_DISPLAY", "").isEmpty();
    }

    /** True for the launches the GUI answers: none with a display, or one existing path that is no subcommand. */
    boolean wantsGui(String... args) {
        if (args.length == 0) {
            return hasDisplay();
        }
        if (args.length != 1 || args[0].startsWith("-") || subcommands.contains(args[0])) {
            return false;
        }
        Path p = Path.of(args[0]);
        return Files.isDirectory(p) || (Files.isRegularFile(p) && "vault.coffer".equals(String.valueOf(p.getFileName())));
    }

    /** Hands the launch to a running instance, or runs the GUI until it quits; returns the exit code. */
    int launch(PrintStream err, String... args) {
        Path vault = args.length == 1 ? Path.of(args[0]).toAbsolutePath().normalize() : null;
        if (!hasDisplay()) {
            err.println("coffer: no graphical display (DISPLAY and WAYLAND_DISPLAY are unset): to use " + vault
                    + " from a terminal, run coffer mount VAULT MOUNTPOINT");
            return 2;
        }
        Path config = ConfigFolder.system();
        try {
            if (SingleInstance.forward(config, vault == null ? List.of() : List.of(vault.toString()))) {
                return 0;
            }
        } catch (IOException e) {
            err.println("coffer: could not reach the running Coffer (" + e.getMessage() + "); starting a new one");
        }
        CofferApp.launch(config, vault);
        return 0;
    }
}
