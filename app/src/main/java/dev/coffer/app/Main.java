package dev.coffer.app;

import dev.coffer.app.cli.CliContext;
import dev.coffer.app.cli.CofferCommand;

/**
 * The process entry point of the {@code coffer} launcher: runs the command line on the real
 * terminal and streams, and exits with its code. Without a subcommand it prints the usage and
 * exits 2 (the GUI will take that case over).
 *
 * <p>Not responsible for parsing or errors ({@link CofferCommand} wires those).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(CliContext.system(), args));
    }

    /** Runs {@code args} in-process; the exit code is returned, not passed to System.exit. */
    public static int run(CliContext ctx, String... args) {
        try {
            return CofferCommand.commandLine(ctx).execute(args);
        } finally {
            ctx.out().flush();
            ctx.err().flush();
        }
    }
}
