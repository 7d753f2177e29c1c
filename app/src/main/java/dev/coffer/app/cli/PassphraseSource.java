package dev.coffer.app.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where a passphrase comes from, in this order: a file named by an option (its first line), an
 * environment variable, then a prompt without echo on the terminal (twice for a new passphrase).
 * Never from a plain argument, which other users could see in the process list.
 *
 * <p>Returns a fresh {@code char[]} the caller wipes. The environment's own String cannot be
 * wiped: that copy lives as long as the process, which is why a file or the prompt is preferred.
 * Not responsible for checking a passphrase against a vault (core does).
 */
final class PassphraseSource {
    static final String ENV = "COFFER_PASSPHRASE";
    static final String NEW_ENV = "COFFER_NEW_PASSPHRASE";
    /** Minimum length of a new passphrase, in Unicode code points. */
    static final int MIN_LENGTH = 8;

    private final CliContext ctx;

    PassphraseSource(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The passphrase of an existing vault: {@code file}, else {@value #ENV}, else one prompt. */
    char[] existing(Path file, String prompt) throws IOException, CliException {
        char[] fromFileOrEnv = fileOrEnv(file, ENV);
        if (fromFileOrEnv != null) {
            return fromFileOrEnv;
        }
        return prompt(prompt, "no passphrase: use --passphrase-file FILE, set " + ENV + ", or run on a terminal");
    }

    /**
     * A new passphrase: {@code file}, else {@code envName}, else prompted twice (the two must match);
     * at least {@value #MIN_LENGTH} characters.
     */
    char[] chosen(Path file, String fileOption, String envName) throws IOException, CliException {
        char[] p = fileOrEnv(file, envName);
        if (p == null) {
            p = promptTwice(fileOption, envName);
        }
        if (p.length == 0 || Character.codePointCount(p, 0, p.length) < MIN_LENGTH) {
            Arrays.fill(p, '\0');
            throw CliException.usage("the new passphrase is too short: use at least " + MIN_LENGTH + " characters");
        }
        return p;
    }

    private char[] fileOrEnv(Path file, String envName) throws IOException, CliException {
        if (file != null) {
            return SecretFiles.firstLine(file, ctx.err());
        }
        String value = ctx.envValue(envName);
        return value == null ? null : value.toCharArray();
    }

    private char[] promptTwice(String fileOption, String envName) throws CliException {
        String missing = "no new passphrase: use " + fileOption + " FILE, set " + envName + ", or run on a terminal";
        char[] first = prompt("New passphrase: ", missing);
        char[] second = null;
        try {
            second = prompt("Repeat the new passphrase: ", missing);
            if (!Arrays.equals(first, second)) {
                throw CliException.usage("the two passphrases do not match");
            }
            char[] result = first;
            first = null;
            return result;
        } finally {
            wipe(first);
            wipe(second);
        }
    }

    private char[] prompt(String prompt, String missingMessage) throws CliException {
        if (!ctx.terminal().isAvailable()) {
            throw CliException.usage(missingMessage);
        }
        char[] p = ctx.terminal().readSecret(prompt);
        if (p == null) {
            throw CliException.usage("no passphrase entered");
        }
        return p;
    }

    static void wipe(char[] secret) {
        if (secret != null) {
            Arrays.fill(secret, '\0');
        }
    }
}
