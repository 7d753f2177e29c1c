package dev.coffer.app.cli;

import java.io.Console;

/**
 * The process's terminal through {@link System#console()}; absent when input or output is
 * redirected. Not responsible for anything but reading without echo.
 */
final class ConsoleTerminal implements Terminal {
    @Override
    public boolean isAvailable() {
        return System.console() != null;
    }

    @Override
    public char[] readSecret(String prompt) {
        Console console = System.console();
        return console == null ? null : console.readPassword("%s", prompt);
    }
}
