package dev.coffer.app.cli;

import dev.coffer.app.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the coffer command line in-process (picocli's {@code execute} through {@link Main#run})
 * with a given environment and terminal, capturing exit code, stdout and stderr.
 */
final class Cli {
    /** The scrypt cost tests create vaults with (the minimum, for speed). */
    static final String FAST_SCRYPT = "16384";

    record Result(int code, byte[] outBytes, String err) {
        String out() {
            return new String(outBytes, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out() + "--- stderr\n" + err;
        }
    }

    private final Map<String, String> env = new HashMap<>();
    private final Deque<String> typed = new ArrayDeque<>();
    private boolean terminal;

    static Cli withEnv(String... keyValues) {
        Cli cli = new Cli();
        for (int i = 0; i < keyValues.length; i += 2) {
            cli.env.put(keyValues[i], keyValues[i + 1]);
        }
        return cli;
    }

    static Cli withPassphrase(String passphrase) {
        return withEnv(PassphraseSource.ENV, passphrase);
    }

    /** A terminal on which the user types {@code lines}, one per prompt. */
    Cli typing(String... lines) {
        terminal = true;
        typed.addAll(List.of(lines));
        return this;
    }

    Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Terminal t = new Terminal() {
            @Override
            public boolean isAvailable() {
                return terminal;
            }

            @Override
            public char[] readSecret(String prompt) {
                String line = typed.poll();
                return line == null ? null : line.toCharArray();
            }
        };
        CliContext ctx = new CliContext(env::get, t, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        int code = Main.run(ctx, args);
        return new Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    /** Creates a vault with {@code passphrase} at the fast scrypt cost; fails the test if it fails. */
    static Path createVault(Path dir, String passphrase, String... extraArgs) {
        String[] args = new String[3 + extraArgs.length];
        args[0] = "create";
        args[1] = dir.toString();
        args[2] = "--scrypt-n=" + FAST_SCRYPT;
        System.arraycopy(extraArgs, 0, args, 3, extraArgs.length);
        Result r = withPassphrase(passphrase).run(args);
        if (r.code() != 0) {
            throw new AssertionError("create failed: " + r);
        }
        return dir;
    }

    /** A file holding {@code content} (for --passphrase-file and friends). */
    static Path file(Path dir, String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }
}
