package dev.coffer.app.cli;

import dev.coffer.app.text.Printable;
import dev.coffer.core.content.DamagedFileException;
import dev.coffer.core.names.DamagedEntryException;
import dev.coffer.core.vault.InvalidPassphraseException;
import dev.coffer.core.vault.PassphraseOpensConflictCopyException;
import dev.coffer.core.vault.InvalidRecoveryKeyException;
import dev.coffer.core.vault.VaultFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The documented exit codes and the ONE table from an exception to an exit code and a one-line
 * message, ordered specific to general. Messages name cleartext paths only.
 *
 * <p>Not responsible for printing (see {@link ErrorHandlers}).
 */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int OTHER = 1;
    public static final int USAGE = 2;
    public static final int WRONG_PASSPHRASE = 3;
    public static final int VAULT_DAMAGED = 4;
    /** {@code check}: the health check found problems. */
    public static final int PROBLEMS_FOUND = 5;

    /** The codes as every command's --help lists them. */
    static Map<String, String> helpMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("0", "done");
        m.put("1", "any other error (a file or folder that does not exist, disk full, ...)");
        m.put("2", "usage: unknown option, missing argument, no passphrase source, passphrase too short, "
                + "folder not empty");
        m.put("3", "wrong passphrase (or recovery key)");
        m.put("4", "not a vault, or the vault is damaged (export: some files were skipped)");
        m.put("5", "check: problems found (0: healthy)");
        return m;
    }

    private record Row(Class<? extends Throwable> type, int code, Function<Throwable, String> message) {}

    private static final List<Row> TABLE = List.of(
            new Row(CliException.class, -1, Throwable::getMessage),
            new Row(InvalidPassphraseException.class, WRONG_PASSPHRASE, e -> "wrong passphrase"),
            new Row(InvalidRecoveryKeyException.class, WRONG_PASSPHRASE, e -> "invalid recovery key: " + e.getMessage()),
            new Row(PassphraseOpensConflictCopyException.class, WRONG_PASSPHRASE, Throwable::getMessage),
            new Row(VaultFormatException.class, VAULT_DAMAGED, e -> "not a usable vault: " + e.getMessage()),
            new Row(DamagedFileException.class, VAULT_DAMAGED, e -> "damaged file: " + fileMessage(e)),
            new Row(DamagedEntryException.class, VAULT_DAMAGED, e -> "damaged entry: " + fileMessage(e)),
            new Row(NoSuchFileException.class, OTHER, e -> "no such file or folder: " + fileMessage(e)),
            new Row(FileAlreadyExistsException.class, OTHER, e -> "already exists: " + fileMessage(e)),
            new Row(NotDirectoryException.class, OTHER, e -> "not a folder: " + fileMessage(e)),
            new Row(DirectoryNotEmptyException.class, OTHER, e -> "folder not empty: " + fileMessage(e)),
            new Row(AccessDeniedException.class, OTHER, e -> "access denied: " + fileMessage(e)),
            new Row(FileSystemException.class, OTHER, ExitCodes::fileMessage),
            new Row(ReadOnlyFileSystemException.class, OTHER, e -> "the vault is open read-only"),
            new Row(IOException.class, OTHER, e -> "I/O error: " + e.getMessage()),
            new Row(Throwable.class, OTHER, e -> "internal error: " + e));

    private ExitCodes() {}

    /** The exit code for {@code t}. */
    public static int of(Throwable t) {
        Throwable cause = unwrap(t);
        Row row = rowOf(cause);
        return row.code() < 0 ? ((CliException) cause).exitCode() : row.code();
    }

    /** The one-line message for {@code t}, without the "coffer: " prefix. */
    public static String message(Throwable t) {
        Throwable cause = unwrap(t);
        return Printable.escape(rowOf(cause).message().apply(cause));
    }

    /** The exception that says what happened, under wrappers that streams and iterators add. */
    static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof UncheckedIOException || e instanceof DirectoryIteratorException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static Row rowOf(Throwable t) {
        return TABLE.stream().filter(r -> r.type().isInstance(t)).findFirst().orElseThrow();
    }

    /** "path: reason", or just the path when there is no reason. */
    private static String fileMessage(Throwable t) {
        FileSystemException e = (FileSystemException) t;
        String file = e.getFile() == null ? "" : e.getFile();
        return e.getReason() == null ? file : file + ": " + e.getReason();
    }
}
