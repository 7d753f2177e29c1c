package dev.coffer.app.cli;

import java.io.PrintWriter;
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
        err.println("coffer: " + Printable.escape(ex.getMessage()));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
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
