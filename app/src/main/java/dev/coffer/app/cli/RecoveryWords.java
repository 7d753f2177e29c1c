package dev.coffer.app.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where {@code recover} gets the 48 recovery words: {@code --words-file} (the whole file), else
 * {@value #ENV}, else a prompt without echo (they are as secret as the key).
 *
 * <p>Returns a String because core parses one; not responsible for checking the words (core does).
 */
final class RecoveryWords {
    static final String ENV = "COFFER_RECOVERY_WORDS";

    private RecoveryWords() {}

    static String read(CliContext ctx, Path wordsFile) throws IOException, CliException {
        char[] chars = null;
        try {
            if (wordsFile != null) {
                chars = SecretFiles.whole(wordsFile, ctx.err());
            } else if (ctx.envValue(ENV) != null) {
                return ctx.envValue(ENV);
            } else if (ctx.terminal().isAvailable()) {
                chars = ctx.terminal().readSecret("Recovery key (48 words, not shown): ");
            }
            if (chars == null) {
                throw CliException.usage("no recovery key: use --words-file FILE, set " + ENV + ", or run on a terminal");
            }
            return new String(chars);
        } finally {
            if (chars != null) {
                Arrays.fill(chars, '\0');
            }
        }
    }
}
