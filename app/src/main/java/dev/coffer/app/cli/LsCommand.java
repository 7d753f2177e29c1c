package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import dev.coffer.core.nio.CofferFileSystem;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer ls VAULT [PATH]}: one line per entry, {@code TYPE SIZE NAME} (type d, f or l;
 * a symlink also shows {@code -> target}), sorted by name. An entry that cannot be read is named
 * on stderr and the listing goes on. Not responsible for recursion (export walks trees).
 */
@Command(name = "ls", description = {
    "Lists a folder of the vault (default: the root), one entry per line: type (d folder, f file, l symlink), "
            + "size in bytes, name. The vault is opened read-only."})
final class LsCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "VAULT", description = "The vault folder.")
    Path vault;

    @Parameters(index = "1", paramLabel = "PATH", arity = "0..1", defaultValue = "/",
            description = "Folder or file in the vault (default: ${DEFAULT-VALUE}).")
    String path;

    @Mixin
    PassphraseOptions passphrase;

    LsCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (CofferFileSystem fs = Vaults.open(ctx, vault, passphrase, true)) {
            Path target = Vaults.cleartextPath(fs, path);
            if (!Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isDirectory()) {
                return print(target);
            }
            List<Path> children = new ArrayList<>();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(target)) {
                s.forEach(children::add);
            }
            children.sort(Comparator.comparing(p -> p.getFileName().toString()));
            int code = ExitCodes.OK;
            for (Path child : children) {
                code = Math.max(code, print(child));
            }
            return code;
        }
    }

    /** Prints one entry; on failure names it on stderr and returns its exit code. */
    private int print(Path entry) {
        try {
            BasicFileAttributes a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            String name = Printable.escape(entry.getFileName().toString());
            if (a.isDirectory()) {
                ctx.out().printf("d %12s  %s%n", "-", name);
            } else if (a.isSymbolicLink()) {
                String target = Printable.escape(Files.readSymbolicLink(entry).toString());
                ctx.out().printf("l %12d  %s -> %s%n", a.size(), name, target);
            } else {
                ctx.out().printf("f %12d  %s%n", a.size(), name);
            }
            return ExitCodes.OK;
        } catch (IOException e) {
            ctx.err().println("coffer: " + ExitCodes.message(e));
            return ExitCodes.of(e);
        }
    }
}
