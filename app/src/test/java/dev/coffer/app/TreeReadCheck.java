package dev.coffer.app;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads a whole tree after a crash (the crash ITs): every file to its end, every folder listed; what
 * fails is collected, named by the caller's naming: files that cannot be read to their end, and
 * folders that cannot be listed (their subtrees are not visited).
 */
final class TreeReadCheck {
    final Set<String> unreadable = new TreeSet<>();
    final Set<String> unlistable = new TreeSet<>();
    private final Function<Path, String> name;

    private TreeReadCheck(Function<Path, String> name) {
        this.name = name;
    }

    static TreeReadCheck of(Path root, Function<Path, String> name) {
        TreeReadCheck check = new TreeReadCheck(name);
        check.visit(root);
        return check;
    }

    private void visit(Path folder) {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            ds.forEach(children::add);
        } catch (IOException | DirectoryIteratorException e) {
            unlistable.add(name.apply(folder));
            return;
        }
        for (Path p : children) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                visit(p);
            } else if (Files.isRegularFile(p)) {
                try {
                    Files.readAllBytes(p);
                } catch (IOException e) {
                    unreadable.add(name.apply(p));
                }
            }
        }
    }
}
