package dev.coffer.app.ui;

import dev.coffer.app.os.DesktopTheme;
import dev.coffer.app.vaults.Theme;
import javafx.scene.Parent;
import javafx.scene.Scene;

/**
 * Styles scenes: {@code base.css} (layout, typography, controls) over {@code light.css} or
 * {@code dark.css} (colours only), chosen by the preference; "follow the system" asks
 * {@link DesktopTheme} once per application, then is told of changes ({@link #systemPrefersDark(boolean)}).
 *
 * <p>Not responsible for remembering the preference.
 */
public final class Themes {
    private static Boolean systemDark;

    private Themes() {}

    public static boolean dark(Theme theme) {
        return switch (theme) {
            case DARK -> true;
            case LIGHT -> false;
            case SYSTEM -> systemPrefersDark();
        };
    }

    private static synchronized boolean systemPrefersDark() {
        if (systemDark == null) {
            systemDark = DesktopTheme.prefersDark();
        }
        return systemDark;
    }

    /** The desktop changed its preference while the app runs (see {@code Gui.systemThemeChanged}). */
    static synchronized void systemPrefersDark(boolean dark) {
        systemDark = dark;
    }

    public static void apply(Scene scene, Theme theme) {
        scene.getStylesheets().setAll(css(dark(theme) ? "dark.css" : "light.css"), css("base.css"));
        Parent root = scene.getRoot();
        root.getStyleClass().removeAll("light", "dark");
        root.getStyleClass().add(dark(theme) ? "dark" : "light");
    }

    private static String css(String name) {
        return Themes.class.getResource(name).toExternalForm();
    }
}
