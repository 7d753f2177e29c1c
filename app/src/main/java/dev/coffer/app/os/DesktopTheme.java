package dev.coffer.app.os;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the desktop prefers a dark theme, for the "follow the system" setting: {@code GTK_THEME}
 * ending in {@code :dark}, else GNOME's {@code color-scheme} (asked through gsettings, at most one
 * second), else light; and, while the app runs, every change of GNOME's {@code color-scheme}
 * ({@link #watch}: {@code gsettings monitor}, one line per change). JavaFX 21 has no API for this
 * (Platform.Preferences came with 22).
 *
 * <p>Not responsible for applying a theme.
 */
public final class DesktopTheme implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopTheme.class);
    public static final List<String> MONITOR = List.of("gsettings", "monitor", "org.gnome.desktop.interface", "color-scheme");

    private final Process monitor;

    private DesktopTheme(Process monitor) {
        this.monitor = monitor;
    }

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

    /**
     * Follows GNOME's color-scheme: {@code onChange} gets whether it now prefers dark, on a
     * background thread, at every change. Empty where it cannot change underneath the app
     * ({@code GTK_THEME} fixes the theme) or there is no gsettings.
     */
    public static Optional<DesktopTheme> watch(Consumer<Boolean> onChange) {
        if (!System.getenv().getOrDefault("GTK_THEME", "").isEmpty()) {
            return Optional.empty();
        }
        return watch(new ProcessBuilder(MONITOR), onChange);
    }

    /** As {@link #watch(Consumer)}, with the monitor started from {@code monitorCommand} (tests give it their session). */
    public static Optional<DesktopTheme> watch(ProcessBuilder monitorCommand, Consumer<Boolean> onChange) {
        Process monitor;
        try {
            monitor = monitorCommand.redirectErrorStream(true).start();
        } catch (IOException e) {
            LOG.info("the desktop theme is not followed while running (no gsettings)");
            return Optional.empty();
        }
        Thread reader = new Thread(() -> read(monitor, onChange), "coffer-desktop-theme");
        reader.setDaemon(true);
        reader.start();
        return Optional.of(new DesktopTheme(monitor));
    }

    /** Lines look like {@code color-scheme: 'prefer-dark'}; anything else (a warning) is skipped. */
    private static void read(Process monitor, Consumer<Boolean> onChange) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(monitor.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("color-scheme:")) {
                    onChange.accept(line.contains("prefer-dark"));
                } else {
                    LOG.debug("gsettings monitor: {}", line);
                }
            }
        } catch (IOException e) {
            LOG.debug("gsettings monitor ended: {}", e.getMessage());
        }
    }

    /** True while the monitor runs. */
    public boolean watching() {
        return monitor.isAlive();
    }

    /** Stops following the desktop. */
    @Override
    public void close() {
        monitor.destroy();
    }
}
