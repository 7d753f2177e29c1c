package dev.coffer.app.vaults;

/** The colour scheme the person chose: light, dark, or whatever the desktop prefers. */
public enum Theme {
    LIGHT,
    DARK,
    SYSTEM
}
