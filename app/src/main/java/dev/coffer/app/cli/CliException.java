package dev.coffer.app.cli;

/**
 * A failure the CLI itself detected (bad input, a folder that is not empty, damaged files skipped
 * by an export), carrying its exit code and a one-line message for stderr.
 *
 * <p>Not used for failures from core or the file system: {@link ExitCodes} maps those.
 */
public final class CliException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** A usage error (exit code 2). */
    static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
