package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Decrypts a vault folder tree into a plain folder: files, folders and symlinks (links copied, not
 * followed). Whatever cannot be read from the vault (a damaged file, folder or link) is reported
 * on stderr with its cleartext path and skipped, and the export goes on; a failure on the
 * destination side (disk full, say) stops it.
 *
 * <p>Not responsible for timestamps or permissions (the format stores neither), nor for opening
 * the vault or choosing the exit code.
 */
final class TreeExporter {
    private static final int BUFFER = 64 * 1024;

    private final PrintStream err;
    int files;
    int folders;
    int links;
    final List<String> unreadable = new ArrayList<>();

    TreeExporter(PrintStream err) {
        this.err = err;
    }

    /** Exports the content of {@code cleartextDir} into the existing folder {@code plainDir}. */
    void export(Path cleartextDir, Path plainDir) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(cleartextDir)) {
            s.forEach(children::add);
        } catch (IOException | RuntimeException e) {
            skip(cleartextDir, e);
            return;
        }
        for (Path child : children) {
            exportEntry(child, plainDir);
        }
    }

    private void exportEntry(Path child, Path plainDir) throws IOException {
        Path target;
        BasicFileAttributes a;
        Path linkTarget = null;
        try {
            target = plainTarget(child, plainDir);
            a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                linkTarget = plainDir.getFileSystem().getPath(Files.readSymbolicLink(child).toString());
            }
        } catch (IOException | InvalidPathException e) {
            skip(child, e);
            return;
        }
        if (linkTarget != null) {
            Files.createSymbolicLink(target, linkTarget);
            links++;
        } else if (a.isDirectory()) {
            Files.createDirectory(target);
            folders++;
            export(child, target);
        } else {
            copyFile(child, target);
        }
    }

    /** The plain path for a vault entry; refuses a name that would leave {@code plainDir}. */
    private static Path plainTarget(Path child, Path plainDir) throws IOException {
        String name = child.getFileName().toString();
        Path target = plainDir.resolve(name);
        if (name.isEmpty() || name.equals(".") || name.equals("..") || !plainDir.equals(target.getParent())) {
            throw new IOException("unsafe name");
        }
        return target;
    }

    private void copyFile(Path cleartextFile, Path target) throws IOException {
        InputStream in;
        try {
            in = Files.newInputStream(cleartextFile);
        } catch (IOException e) {
            skip(cleartextFile, e);
            return;
        }
        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            in.close();
            throw new java.nio.file.FileAlreadyExistsException(target.toString());
        }
        // Under a temporary name until whole: a full disk or a signal leaves no cut-short file under the real name.
        Path temp = PartialCopies.tempBeside(target);
        inProgress = temp;
        try {
            copyTo(cleartextFile, in, temp, target);
        } finally {
            inProgress = null;
        }
    }

    private volatile Path inProgress;

    /** Deletes the partial copy a signal interrupted (registered for the export's duration by the caller). */
    void deletePartial() {
        PartialCopies.deleteQuietly(inProgress);
    }

    private void copyTo(Path cleartextFile, InputStream in, Path temp, Path target) throws IOException {
        IOException readFailure = null;
        try (in; OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            byte[] buffer = new byte[BUFFER];
            while (true) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (IOException e) {
                    readFailure = e; // vault side: skip this file; a write failure below stops the export
                    break;
                }
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException | RuntimeException writeFailure) { // destination side (a full disk): the export stops
            PartialCopies.delete(temp, writeFailure);
            err.println("coffer: " + Printable.escape(target.toString()) + " was not exported (nothing of it was kept)");
            throw writeFailure;
        }
        if (readFailure != null) {
            Files.delete(temp); // no half-written file in the export
            skip(cleartextFile, readFailure);
            return;
        }
        try {
            Files.move(temp, target); // never over a file that appeared meanwhile
        } catch (IOException | RuntimeException e) {
            PartialCopies.delete(temp, e);
            throw e;
        }
        files++;
    }

    private void skip(Path cleartextPath, Exception e) {
        unreadable.add(cleartextPath.toString());
        err.println("coffer: skipped, cannot read " + Printable.escape(cleartextPath.toString()) + ": "
                + Printable.escape(reason(e)));
    }

    /** Why, without repeating the path that the line already names. */
    private static String reason(Exception e) {
        Throwable cause = ExitCodes.unwrap(e);
        if (cause instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
