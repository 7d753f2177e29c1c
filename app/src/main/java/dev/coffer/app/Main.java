package dev.coffer.app;

import dev.coffer.app.cli.CliContext;
import dev.coffer.app.cli.CofferCommand;
import dev.coffer.fuse.SystemMessages;
import java.util.List;

/**
 * The process entry point of the {@code coffer} launcher: without arguments on a desktop, or with a
 * single path to a vault (what double-clicking vault.coffer runs), the GUI ({@link GuiLauncher});
 * otherwise the command line on the real terminal and streams, exiting with its code. Without a
 * subcommand and without a display it prints the usage and exits 2.
 *
 * <p>Not responsible for parsing or errors ({@link CofferCommand} wires those).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        CliContext ctx = CliContext.system();
        GuiLauncher gui = new GuiLauncher(System.getenv(), CofferCommand.commandLine(ctx).getSubcommands().keySet());
        if (gui.wantsGui(args)) {
            System.exit(gui.launch(ctx.err(), args)); // the GUI makes the messages English once its toolkit runs
        }
        if (!informationOnly(args)) {
            // Before any other thread: the code that reads the system's error messages expects English ones.
            // Not for --version or --help, which it would slow down by a tenth of a second (a native library).
            SystemMessages.inEnglish();
        }
        System.exit(run(ctx, args));
    }

    /** True for a command line that only prints usage or the version. */
    static boolean informationOnly(String[] args) {
        return args.length == 0 || List.of("--version", "-V", "--help", "-h", "help").contains(args[0]);
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
