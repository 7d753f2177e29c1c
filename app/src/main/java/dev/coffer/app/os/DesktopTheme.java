package dev.coffer.app.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whether the desktop prefers a dark theme, for the "follow the system" setting: {@code GTK_THEME}
 * ending in {@code :dark}, else GNOME's {@code color-scheme} (asked through gsettings, at most one
 * second), else light. JavaFX 21 has no API for this (Platform.Preferences came with 22).
 *
 * <p>Not responsible for applying a theme.
 */
public final class DesktopTheme {
    private DesktopTheme() {}

    public static boolean prefersDark() {
        return prefersDark(System.getenv());
    }

    static boolean prefersDark(Map<String, String> env) {
        String gtk = env.getOrDefault("GTK_THEME", "");
        if (!gtk.isEmpty()) {
            return gtk.toLowerCase(Locale.ROOT).endsWith(":dark") || gtk.toLowerCase(Locale.ROOT).contains("-dark");
        }
        try {
            Process p = new ProcessBuilder("gsettings", "get", "org.gnome.desktop.interface", "color-scheme")
                    .redirectErrorStream(true).start();
            if (!p.waitFor(1, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("prefer-dark");
        } catch (IOException e) {
            return false; // no gsettings: not GNOME
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
