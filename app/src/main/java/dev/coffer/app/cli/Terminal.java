package dev.coffer.app.cli;

/**
 * An interactive terminal that can read a secret without echo. Only secrets are read from it;
 * prompts go to the terminal itself, never to standard output.
 *
 * <p>Not responsible for deciding when to prompt ({@link PassphraseSource} does).
 */
public interface Terminal {
    /** True if there is a terminal to prompt on. */
    boolean isAvailable();

    /**
     * Prompts and reads one line without echo, without its line break.
     *
     * @return the characters (the caller wipes them), or null at end of input
     */
    char[] readSecret(String prompt);
}
