package dev.coffer.app.vaults;

/**
 * The app-wide preferences (saved in settings.json). Immutable; {@link #defaults()} is what a
 * first start uses.
 *
 * <p>Not responsible for applying them (the UI applies theme and language, {@link VaultService}
 * the mount and auto-lock defaults to vaults added later).
 *
 * @param theme                  light, dark, or follow the desktop
 * @param startMinimised         start in the tray (or iconified where there is no tray)
 * @param defaultMountMethod     the mount method of vaults added from now on
 * @param webDavPort             the loopback port of the WebDAV server (0: any free port)
 * @param autoLockMinutesDefault the idle minutes of vaults added from now on (0: never)
 * @param language               a language tag such as {@code de}, or empty to follow the system
 * @param debugLogging           log at debug level into the log file
 */
public record Preferences(Theme theme, boolean startMinimised, MountMethod defaultMountMethod, int webDavPort,
        int autoLockMinutesDefault, String language, boolean debugLogging) {
    public static final int DEFAULT_WEBDAV_PORT = 42427;

    public Preferences {
        theme = theme == null ? Theme.SYSTEM : theme;
        defaultMountMethod = defaultMountMethod == null ? MountMethod.AUTO : defaultMountMethod;
        language = language == null ? "" : language;
        if (webDavPort < 0 || webDavPort > 65_535) {
            throw new IllegalArgumentException("webDavPort must be 0 to 65535");
        }
        if (autoLockMinutesDefault < 0) {
            throw new IllegalArgumentException("autoLockMinutesDefault must not be negative");
        }
    }

    public static Preferences defaults() {
        return new Preferences(Theme.SYSTEM, false, MountMethod.AUTO, DEFAULT_WEBDAV_PORT, 0, "", false);
    }
}
