package dev.coffer.fuse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.List;
import java.util.Locale;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * The ONE table from an exception to the errno that FUSE returns, ordered specific to general; the
 * first matching row wins and anything unmatched is EIO. A row matches by exception type and,
 * optionally, by a fragment of the reason: the default provider and the vault report ENOTDIR,
 * EISDIR, ENAMETOOLONG, ELOOP, ENOSPC... as plain {@link FileSystemException}s (or, for a full
 * disk, plain {@link IOException}s) whose reason is the C library's message. The vault's own
 * damaged-file and damaged-entry exceptions are plain {@code FileSystemException}s with other
 * reasons, so they fall to the EIO row without this frontend knowing the vault's classes.
 *
 * <p>Not responsible for logging or for choosing which operation failed ({@link Calls} does).
 */
final class Errno {
    /** One row: an exception type, an optional reason fragment (lower case), and the errno. */
    record Row(Class<? extends Throwable> type, String reason, int errno) {
        boolean matches(Throwable t) {
            return type.isInstance(t) && (reason == null || reasonOf(t).contains(reason));
        }
    }

    static final int EIO = ErrorCodes.EIO();

    static final List<Row> TABLE = List.of(
            new Row(StaleEntryException.class, null, ErrorCodes.ESTALE()),
            new Row(NoSuchFileException.class, null, ErrorCodes.ENOENT()),
            new Row(FileAlreadyExistsException.class, null, ErrorCodes.EEXIST()),
            new Row(DirectoryNotEmptyException.class, null, ErrorCodes.ENOTEMPTY()),
            new Row(NotDirectoryException.class, null, ErrorCodes.ENOTDIR()),
            new Row(NotLinkException.class, null, ErrorCodes.EINVAL()),
            new Row(AccessDeniedException.class, null, ErrorCodes.EACCES()),
            new Row(AtomicMoveNotSupportedException.class, null, ErrorCodes.EXDEV()),
            new Row(FileSystemLoopException.class, null, ErrorCodes.ELOOP()),
            new Row(FileSystemException.class, "not a directory", ErrorCodes.ENOTDIR()),
            new Row(FileSystemException.class, "is a directory", ErrorCodes.EISDIR()),
            new Row(FileSystemException.class, "name too long", ErrorCodes.ENAMETOOLONG()),
            new Row(FileSystemException.class, "too many levels of symbolic links", ErrorCodes.ELOOP()),
            new Row(FileSystemException.class, "directory not empty", ErrorCodes.ENOTEMPTY()),
            new Row(FileSystemException.class, "invalid name", ErrorCodes.EINVAL()),
            new Row(FileSystemException.class, KernelNames.UNDECODABLE.toLowerCase(java.util.Locale.ROOT), ErrorCodes.EILSEQ()),
            new Row(FileSystemException.class, "cannot move a folder into itself", ErrorCodes.EINVAL()),
            new Row(FileSystemException.class, "root folder cannot be", ErrorCodes.EBUSY()),
            new Row(FileSystemException.class, "operation not permitted", ErrorCodes.EPERM()),
            new Row(FileSystemException.class, "invalid argument", ErrorCodes.EINVAL()),
            new Row(FileSystemException.class, "cross-device link", ErrorCodes.EXDEV()),
            new Row(FileSystemException.class, "too many open files", ErrorCodes.EMFILE()),
            new Row(FileSystemException.class, "device or resource busy", ErrorCodes.EBUSY()),
            new Row(FileSystemException.class, "operation not supported", ErrorCodes.EOPNOTSUPP()),
            new Row(IOException.class, "no space left on device", ErrorCodes.ENOSPC()),
            new Row(IOException.class, "disk quota exceeded", ErrorCodes.EDQUOT()),
            new Row(IOException.class, "file too large", ErrorCodes.EFBIG()),
            new Row(IOException.class, "read-only file system", ErrorCodes.EROFS()),
            new Row(ClosedChannelException.class, null, ErrorCodes.EBADF()),
            new Row(ReadOnlyFileSystemException.class, null, ErrorCodes.EROFS()),
            new Row(NonReadableChannelException.class, null, ErrorCodes.EBADF()),
            new Row(NonWritableChannelException.class, null, ErrorCodes.EBADF()),
            new Row(UnsupportedOperationException.class, null, ErrorCodes.EOPNOTSUPP()),
            new Row(IllegalArgumentException.class, null, ErrorCodes.EINVAL()),
            new Row(IOException.class, null, EIO));

    private Errno() {}

    /** The positive errno for {@code t} (EIO when no row matches). */
    static int of(Throwable t) {
        Throwable cause = unwrap(t);
        for (Row row : TABLE) {
            if (row.matches(cause)) {
                return row.errno();
            }
        }
        return EIO;
    }

    /** The exception that says what happened, under wrappers that streams and iterators add. */
    static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof UncheckedIOException || e instanceof DirectoryIteratorException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static String reasonOf(Throwable t) {
        String reason = t instanceof FileSystemException f ? f.getReason() : t.getMessage();
        return reason == null ? "" : reason.toLowerCase(Locale.ROOT);
    }
}
