package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import ru.serce.jnrfuse.ErrorCodes;

/** Every row of the errno table, with the exceptions that the default provider and the vault really throw. */
class ErrnoTest {
    private static FileSystemException reason(String reason) {
        return new FileSystemException("/some/file", null, reason);
    }

    /** One example per row, in table order; the test checks both the errno and that the example hit its own row. */
    private static Map<Throwable, Integer> examples() {
        Map<Throwable, Integer> m = new LinkedHashMap<>();
        m.put(new StaleEntryException(new NoSuchFileException("/a")), ErrorCodes.ESTALE());
        m.put(new NoSuchFileException("/a"), ErrorCodes.ENOENT());
        m.put(new FileAlreadyExistsException("/a"), ErrorCodes.EEXIST());
        m.put(new DirectoryNotEmptyException("/a"), ErrorCodes.ENOTEMPTY());
        m.put(new NotDirectoryException("/a"), ErrorCodes.ENOTDIR());
        m.put(new NotLinkException("/a"), ErrorCodes.EINVAL());
        m.put(new AccessDeniedException("/a"), ErrorCodes.EACCES());
        m.put(new AtomicMoveNotSupportedException("/a", "/b", "other store"), ErrorCodes.EXDEV());
        m.put(new FileSystemLoopException("/a"), ErrorCodes.ELOOP());
        m.put(reason("Not a directory"), ErrorCodes.ENOTDIR()); // core's NotADirectoryComponentException, default provider
        m.put(reason("Is a directory"), ErrorCodes.EISDIR());
        m.put(reason("name too long"), ErrorCodes.ENAMETOOLONG()); // core; the default provider says "File name too long"
        m.put(reason("Too many levels of symbolic links or unable to access attributes of symbolic link"), ErrorCodes.ELOOP());
        m.put(reason("Directory not empty"), ErrorCodes.ENOTEMPTY());
        m.put(reason("invalid name"), ErrorCodes.EINVAL());
        m.put(new FileSystemException(null, null, KernelNames.UNDECODABLE), ErrorCodes.EILSEQ()); // a kernel path that did not decode
        m.put(reason("cannot move a folder into itself"), ErrorCodes.EINVAL());
        m.put(reason("the root folder cannot be moved or replaced"), ErrorCodes.EBUSY());
        m.put(reason("Operation not permitted"), ErrorCodes.EPERM());
        m.put(reason("Invalid argument"), ErrorCodes.EINVAL());
        m.put(reason("Invalid cross-device link"), ErrorCodes.EXDEV());
        m.put(reason("Too many open files"), ErrorCodes.EMFILE());
        m.put(reason("Device or resource busy"), ErrorCodes.EBUSY());
        m.put(reason("Operation not supported"), ErrorCodes.EOPNOTSUPP());
        m.put(new IOException("No space left on device"), ErrorCodes.ENOSPC()); // FileChannel.write on a full disk
        m.put(new IOException("Disk quota exceeded"), ErrorCodes.EDQUOT());
        m.put(new IOException("File too large"), ErrorCodes.EFBIG());
        m.put(reason("Read-only file system"), ErrorCodes.EROFS());
        m.put(new ClosedChannelException(), ErrorCodes.EBADF());
        m.put(new ReadOnlyFileSystemException(), ErrorCodes.EROFS());
        m.put(new NonReadableChannelException(), ErrorCodes.EBADF());
        m.put(new NonWritableChannelException(), ErrorCodes.EBADF());
        m.put(new UnsupportedOperationException("map"), ErrorCodes.EOPNOTSUPP());
        m.put(new IllegalArgumentException("negative size"), ErrorCodes.EINVAL());
        m.put(new IOException("header failed authentication"), ErrorCodes.EIO());
        return m;
    }

    @Test
    void everyRowMapsItsExampleAndEveryRowHasOne() {
        Map<Throwable, Integer> examples = examples();
        Set<Errno.Row> hit = new HashSet<>();
        for (Map.Entry<Throwable, Integer> e : examples.entrySet()) {
            assertThat(Errno.of(e.getKey())).as("%s", e.getKey()).isEqualTo(e.getValue());
            hit.add(Errno.TABLE.stream().filter(r -> r.matches(e.getKey())).findFirst().orElseThrow());
        }
        assertThat(hit).containsExactlyInAnyOrderElementsOf(Errno.TABLE);
    }

    @Test
    void vaultDamageAndEverythingUnknownIsEio() {
        // Core's DamagedFileException and DamagedEntryException are plain FileSystemExceptions with their own reasons.
        assertThat(Errno.of(reason("file header failed authentication"))).isEqualTo(ErrorCodes.EIO());
        assertThat(Errno.of(reason("incomplete entry"))).isEqualTo(ErrorCodes.EIO());
        assertThat(Errno.of(new ClosedFileSystemException())).isEqualTo(ErrorCodes.EIO());
        assertThat(Errno.of(new IllegalStateException("bug"))).isEqualTo(ErrorCodes.EIO());
        assertThat(Errno.of(new OutOfMemoryError())).isEqualTo(ErrorCodes.EIO());
        assertThat(Errno.of(new FileSystemException("/a"))).isEqualTo(ErrorCodes.EIO());
    }

    @Test
    void specificRowsComeBeforeGeneralOnes() {
        List<Errno.Row> table = Errno.TABLE;
        for (int i = 0; i < table.size(); i++) {
            for (int j = i + 1; j < table.size(); j++) {
                Errno.Row earlier = table.get(i);
                Errno.Row later = table.get(j);
                boolean laterIsNarrower = earlier.type().isAssignableFrom(later.type()) && earlier.type() != later.type()
                        && earlier.reason() == null;
                assertThat(laterIsNarrower).as("row %s would hide row %s", earlier, later).isFalse();
            }
        }
    }

    @Test
    void wrappersFromStreamsAndIteratorsAreLookedThrough() {
        assertThat(Errno.of(new UncheckedIOException(new NoSuchFileException("/a")))).isEqualTo(ErrorCodes.ENOENT());
        assertThat(Errno.of(new DirectoryIteratorException(new AccessDeniedException("/a")))).isEqualTo(ErrorCodes.EACCES());
    }
}
