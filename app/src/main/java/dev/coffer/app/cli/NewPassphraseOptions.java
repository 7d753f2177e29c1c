package dev.coffer.app.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --new-passphrase-file} option of {@code passwd} and {@code recover}. Holds the option
 * only; {@link PassphraseSource} reads it.
 */
final class NewPassphraseOptions {
    static final String OPTION = "--new-passphrase-file";

    @Option(names = OPTION, paramLabel = "FILE",
            description = "Read the new passphrase (at least " + PassphraseSource.MIN_LENGTH + " characters) from the first "
                    + "line of FILE. Otherwise from " + PassphraseSource.NEW_ENV + ", otherwise from two prompts "
                    + "on the terminal.")
    Path file;

    /** The new passphrase from this option, the environment, or the terminal; the caller wipes it. */
    char[] read(CliContext ctx) throws java.io.IOException, CliException {
        return new PassphraseSource(ctx).chosen(file, OPTION, PassphraseSource.NEW_ENV);
    }
}
