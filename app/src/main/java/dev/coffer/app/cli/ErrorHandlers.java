package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Prints errors as one line on stderr ("coffer: ...") and returns their exit code: usage errors
 * from picocli (exit 2, with a pointer to --help), and exceptions from a command (through
 * {@link ExitCodes}). A stack trace only with {@code --debug}.
 *
 * <p>Not responsible for choosing codes or messages ({@link ExitCodes} is the only table).
 */
final class ErrorHandlers implements IParameterExceptionHandler, IExecutionExceptionHandler {
    static final String DEBUG_OPTION = "--debug";

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println("coffer: " + describe(ex));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * The usage error without repeating argument values: a mistyped command line may hold a
     * passphrase (e.g. {@code --passphrase secret}), and stderr ends up in terminals and logs.
     */
    static String describe(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException u) {
            List<String> unmatched = u.getUnmatched();
            if (unmatched.stream().anyMatch(a -> a.equals("--passphrase") || a.startsWith("--passphrase="))) {
                return "passphrases are never given as arguments: use --passphrase-file FILE, COFFER_PASSPHRASE, or the prompt";
            }
            List<String> options = unmatched.stream().filter(a -> a.startsWith("-")).map(a -> a.split("=", 2)[0]).toList();
            int values = unmatched.size() - options.size();
            String what = options.isEmpty() ? "" : "unknown option(s) " + String.join(", ", options);
            String extra = values == 0 ? "" : (what.isEmpty() ? "" : "; ") + values + " unexpected argument(s) (not repeated here)";
            return Printable.escape(what + extra);
        }
        return Printable.escape(ex.getMessage());
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
        PrintWriter err = cl.getErr();
        err.println("coffer: " + ExitCodes.message(ex));
        if (debug(parseResult)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.of(ex);
    }

    /** True if --debug was given on the command line, on the root or on a subcommand. */
    static boolean debug(ParseResult parseResult) {
        for (ParseResult p = parseResult; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption(DEBUG_OPTION)) {
                return true;
            }
        }
        return false;
    }
}
