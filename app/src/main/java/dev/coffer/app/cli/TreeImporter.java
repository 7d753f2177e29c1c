package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Copies a plain folder tree (files, folders, symlinks; symlinks copied as links, never followed)
 * into a folder of an open vault, merging into folders that exist and refusing to replace files.
 * Other kinds of file (sockets, devices, FIFOs) are reported on stderr and skipped.
 *
 * <p>Not responsible for timestamps or permissions (the vault format stores neither), nor for
 * opening the vault.
 */
final class TreeImporter {
    private final PrintStream err;
    int files;
    int folders;
    int links;
    int skipped;

    TreeImporter(PrintStream err) {
        this.err = err;
    }

    /** Copies the content of {@code plainRoot} into {@code cleartextRoot} (which exists). */
    void copy(Path plainRoot, Path cleartextRoot) throws IOException {
        // A signal (Ctrl-C, SIGTERM) ends the JVM in the middle of a file: its partial copy goes.
        Thread cleanUp = new Thread(() -> PartialCopies.deleteQuietly(inProgress), "coffer-import-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            walk(plainRoot, cleartextRoot);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
        }
    }

    private volatile Path inProgress;

    /**
     * Copies one file under a temporary name beside its target and renames it into place only once
     * it is whole: an import that fails (a full disk, an unreadable source) or is stopped leaves no
     * cut-short file under the real name, which a health check could not tell from a whole one.
     */
    private void importFile(Path file, Path target) throws IOException {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new java.nio.file.FileAlreadyExistsException(target.toString());
        }
        Path temp = PartialCopies.tempBeside(target);
        inProgress = temp;
        try {
            try (InputStream in = Files.newInputStream(file)) {
                Files.copy(in, temp);
            }
            Files.move(temp, target); // never over a file that appeared meanwhile
        } catch (IOException | RuntimeException e) {
            PartialCopies.delete(temp, e);
            err.println("coffer: " + Printable.escape(file.toString()) + " was not imported (nothing of it was kept)");
            throw e;
        } finally {
            inProgress = null;
        }
    }

    private void walk(Path plainRoot, Path cleartextRoot) throws IOException {
        Files.walkFileTree(plainRoot, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path target = map(plainRoot, dir, cleartextRoot);
                if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectory(target);
                    folders++;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path target = map(plainRoot, file, cleartextRoot);
                if (attrs.isSymbolicLink()) {
                    // Same separator on both sides ("/"), so the target's string form carries over.
                    Files.createSymbolicLink(target, target.getFileSystem().getPath(Files.readSymbolicLink(file).toString()));
                    links++;
                } else if (attrs.isRegularFile()) {
                    importFile(file, target);
                    files++;
                } else {
                    err.println("coffer: skipped (not a file, folder or symlink): " + Printable.escape(file.toString()));
                    skipped++;
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** The vault path for a plain path under {@code plainRoot}, name by name (the two are different file systems). */
    private static Path map(Path plainRoot, Path plain, Path cleartextRoot) {
        Path target = cleartextRoot;
        if (!plain.equals(plainRoot)) {
            for (Path name : plainRoot.relativize(plain)) {
                target = target.resolve(name.toString());
            }
        }
        return target;
    }
}
