package dev.coffer.app.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --passphrase-file} option shared by every command that needs the vault's passphrase
 * (for {@code create}, the new vault's passphrase). Holds the option only; {@link PassphraseSource}
 * reads it.
 */
final class PassphraseOptions {
    @Option(names = "--passphrase-file", paramLabel = "FILE",
            description = "Read the passphrase from the first line of FILE. Otherwise from the environment "
                    + "variable " + PassphraseSource.ENV + ", otherwise from a prompt on the terminal.")
    Path file;
}
