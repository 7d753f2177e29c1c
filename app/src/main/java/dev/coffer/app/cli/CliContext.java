package dev.coffer.app.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a command may touch outside its arguments: the environment, the terminal, and the two
 * output streams. Injected so that tests run commands in-process with their own environment and
 * captured output.
 *
 * <p>Not responsible for parsing arguments (picocli) or for reading secrets ({@link PassphraseSource}).
 *
 * @param env      environment lookup, {@code null} for an unset variable
 * @param terminal the interactive terminal, possibly absent
 * @param out      standard output (raw bytes for {@code cat}, UTF-8 text otherwise)
 * @param err      standard error (UTF-8 text)
 */
public record CliContext(Function<String, String> env, Terminal terminal, PrintStream out, PrintStream err) {
    public CliContext {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(terminal, "terminal");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
    }

    /** The real process: System.getenv, System.console(), stdout and stderr. */
    public static CliContext system() {
        // UTF-8 whatever the platform default, so that names print the same everywhere.
        return new CliContext(System::getenv, new ConsoleTerminal(),
                new PrintStream(System.out, false, StandardCharsets.UTF_8),
                new PrintStream(System.err, true, StandardCharsets.UTF_8));
    }

    /** The value of {@code name}, or null when unset or empty. */
    String envValue(String name) {
        String value = env.apply(name);
        return value == null || value.isEmpty() ? null : value;
    }
}
