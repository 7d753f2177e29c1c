package dev.coffer.app.vaults;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the app keeps its settings, socket and log: {@code $XDG_CONFIG_HOME/coffer}, or
 * {@code ~/.config/coffer} when that variable is unset or not absolute (as the XDG base directory
 * specification says). Tests pass their own environment.
 *
 * <p>Not responsible for creating the folder (its users create it when they first write).
 */
public final class ConfigFolder {
    private ConfigFolder() {}

    /** The config folder for this process's environment and home. */
    public static Path of(Map<String, String> env, Path home) {
        String xdg = env.get("XDG_CONFIG_HOME");
        if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "coffer");
        }
        return home.resolve(".config").resolve("coffer");
    }

    public static Path system() {
        return of(System.getenv(), Path.of(System.getProperty("user.home")));
    }
}
