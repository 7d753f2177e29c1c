package dev.coffer.app.os;

import dev.coffer.fuse.SystemMessages;

/**
 * The GUI's way to keep the system's error messages English once its toolkit has started (GTK sets
 * the whole C locale from the environment): the code that reads them expects English ones
 * ({@link SystemMessages}). Here so that the GUI does not depend on the FUSE frontend itself.
 */
public final class ErrorMessages {
    private ErrorMessages() {}

    public static void inEnglish() {
        SystemMessages.inEnglish();
    }
}
