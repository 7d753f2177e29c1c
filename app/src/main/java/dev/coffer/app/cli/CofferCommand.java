package dev.coffer.app.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code coffer} command: global options (--help, --version, --debug) and the wiring of the
 * subcommands, each built with the same {@link CliContext}. Without a subcommand it prints the
 * usage and exits 2.
 *
 * <p>Not responsible for any vault operation (the subcommands are).
 */
@Command(name = "coffer", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        scope = ScopeType.INHERIT, sortOptions = false, usageHelpAutoWidth = true,
        description = "Encrypted vaults for cloud-sync folders.")
public final class CofferCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = ErrorHandlers.DEBUG_OPTION, scope = ScopeType.INHERIT,
            description = "On an error, print the stack trace; log at debug level.")
    boolean debug;

    private CofferCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The command line with all subcommands, writing to the context's streams. */
    public static CommandLine commandLine(CliContext ctx) {
        CommandLine cl = new CommandLine(new CofferCommand(ctx))
                .addSubcommand(new CreateCommand(ctx))
                .addSubcommand(new InfoCommand(ctx))
                .addSubcommand(new PasswdCommand(ctx))
                .addSubcommand(new RecoveryKeyCommand(ctx))
                .addSubcommand(new RecoverCommand(ctx))
                .addSubcommand(new ImportCommand(ctx))
                .addSubcommand(new ExportCommand(ctx))
                .addSubcommand(new LsCommand(ctx))
                .addSubcommand(new CatCommand(ctx))
                .addSubcommand(new MountCommand(ctx))
                .addSubcommand(new CheckCommand(ctx))
                .addSubcommand(new ServeCommand(ctx));
        ErrorHandlers handlers = new ErrorHandlers();
        cl.setParameterExceptionHandler(handlers);
        cl.setExecutionExceptionHandler(handlers);
        cl.setExecutionStrategy(parseResult -> {
            if (ErrorHandlers.debug(parseResult)) {
                dev.coffer.app.LogConfigurator.enableDebug();
            }
            return new CommandLine.RunLast().execute(parseResult);
        });
        cl.setOut(new PrintWriter(new OutputStreamWriter(ctx.out(), StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new OutputStreamWriter(ctx.err(), StandardCharsets.UTF_8), true));
        // The same exit-code table in every command's --help.
        for (CommandLine c : allCommands(cl)) {
            c.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.helpMap());
        }
        return cl;
    }

    private static List<CommandLine> allCommands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>(root.getSubcommands().values());
        all.add(root);
        return all;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
