package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every backend must share with the default provider. Subclasses supply the root:
 * a plain folder (the reference), a vault on a temp dir, a vault on Jimfs, a FUSE mount.
 */
public abstract class FileSystemContract {

    /** An empty, writable folder of the file system under test. */
    protected abstract Path root() throws IOException;

    /**
     * A folder opens for reading as on Linux: nothing to read, writing refused, and its force is a
     * folder fsync (what FUSE's fsyncdir does after a delete, which does not sync its folder itself).
     */
    @Test
    public void aFolderOpensForReadingAndItsForceSyncsIt() throws IOException {
        Path r = root();
        Path d = Files.createDirectory(r.resolve("folder"));
        Files.writeString(d.resolve("f"), "f");
        Files.delete(d.resolve("f"));
        for (Path folder : List.of(r, d)) {
            try (FileChannel ch = FileChannel.open(folder, StandardOpenOption.READ)) {
                ch.force(true);
                assertThatThrownBy(() -> ch.read(ByteBuffer.allocate(1))).isInstanceOf(IOException.class)
                        .hasMessageContaining("Is a directory");
            }
            assertThatThrownBy(() -> FileChannel.open(folder, StandardOpenOption.WRITE)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Is a directory");
        }
        assertThat(Files.isDirectory(d)).isTrue();
    }

    @Test
    public void writeReadAndSizeAroundUnitBoundaries() throws IOException {
        Path r = root();
        int[] sizes = {0, 1, 15, 16, 17, 4095, 4096, 4097, 4096 + 15, 4096 + 16, 8191, 8192, 8193, 3 * 4096 + 7, 300_000};
        Random rnd = new Random(1);
        for (int n : sizes) {
            byte[] data = new byte[n];
            rnd.nextBytes(data);
            Path f = r.resolve("f" + n + ".bin");
            Files.write(f, data);
            assertThat(Files.size(f)).as("size of %d", n).isEqualTo(n);
            assertThat(Files.readAllBytes(f)).isEqualTo(data);
        }
        try (Stream<Path> s = Files.list(r)) {
            assertThat(s.count()).isEqualTo(sizes.length);
        }
    }

    @Test
    public void positionalWritesPastTheEndLeaveZerosAndTruncateShrinks() throws IOException {
        Path f = root().resolve("sparse");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 10_000);
            assertThat(ch.size()).isEqualTo(10_003);
            ByteBuffer buf = ByteBuffer.allocate(10_003);
            ch.read(buf, 0);
            assertThat(buf.get(9_999)).isZero();
            assertThat(buf.get(10_000)).isEqualTo((byte) 1);
            ch.truncate(4097);
            assertThat(ch.size()).isEqualTo(4097);
            ch.truncate(1_000_000); // never grows
            assertThat(ch.size()).isEqualTo(4097);
            assertThat(ch.read(ByteBuffer.allocate(5), 4097)).isEqualTo(-1);
        }
        assertThat(Files.size(f)).isEqualTo(4097);
    }

    @Test
    public void appendAndTwoChannelsSeeEachOthersWrites() throws IOException {
        Path f = root().resolve("shared.txt");
        Files.writeString(f, "hello");
        Files.writeString(f, " world", StandardOpenOption.APPEND);
        assertThat(Files.readString(f)).isEqualTo("hello world");
        try (FileChannel a = FileChannel.open(f, StandardOpenOption.WRITE);
             FileChannel b = FileChannel.open(f, StandardOpenOption.READ)) {
            a.write(ByteBuffer.wrap("J".getBytes(StandardCharsets.US_ASCII)), 0);
            ByteBuffer buf = ByteBuffer.allocate(11);
            b.read(buf, 0);
            assertThat(new String(buf.array(), StandardCharsets.US_ASCII)).isEqualTo("Jello world");
        }
        Files.writeString(f, "x", StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        assertThat(Files.readString(f)).isEqualTo("x");
    }

    /**
     * The type asked as single attributes ({@code basic:isDirectory}, as FUSE's rmdir asks it; the
     * vault answers from the lookup alone) agrees with a full read, with and without following a
     * link; a missing name throws as a full read does.
     */
    @Test
    public void typeAttributesAgreeWithAFullRead() throws IOException {
        Path r = root();
        Path folder = Files.createDirectory(r.resolve("folder"));
        Path file = Files.writeString(r.resolve("file"), "f");
        Path link = Files.createSymbolicLink(r.resolve("link"), r.getFileSystem().getPath("folder"));
        for (Path p : List.of(r, folder, file, link)) {
            for (LinkOption[] options : List.of(new LinkOption[0], new LinkOption[] {LinkOption.NOFOLLOW_LINKS})) {
                BasicFileAttributes full = Files.readAttributes(p, BasicFileAttributes.class, options);
                assertThat(Files.getAttribute(p, "basic:isDirectory", options)).as(p + " isDirectory").isEqualTo(full.isDirectory());
                assertThat(Files.readAttributes(p, "isRegularFile,isSymbolicLink,isOther", options)).as(p.toString())
                        .containsEntry("isRegularFile", full.isRegularFile()).containsEntry("isSymbolicLink", full.isSymbolicLink())
                        .containsEntry("isOther", full.isOther()).hasSize(3);
            }
        }
        assertThat(Files.getAttribute(link, "isDirectory", LinkOption.NOFOLLOW_LINKS)).isEqualTo(false);
        assertThatThrownBy(() -> Files.getAttribute(r.resolve("missing"), "basic:isDirectory", LinkOption.NOFOLLOW_LINKS))
                .isInstanceOf(NoSuchFileException.class);
    }

    /**
     * A folder's stream is a {@link SecureDirectoryStream} whose deletes take only their own kind:
     * what FUSE rmdir relies on, so that a file that took a folder's name (a sync client) is kept.
     */
    @Test
    public void aFolderStreamDeletesOnlyItsOwnKind() throws IOException {
        Path r = root();
        Files.createDirectory(r.resolve("empty"));
        Files.createDirectory(r.resolve("full"));
        Files.writeString(r.resolve("full/inside"), "inside");
        Files.writeString(r.resolve("file"), "file");
        Files.createSymbolicLink(r.resolve("link"), r.getFileSystem().getPath("empty"));
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(r)) {
            SecureDirectoryStream<Path> folder = secure(ds);
            Path name = r.getFileSystem().getPath("x").getFileName();
            for (String notFolder : List.of("file", "link")) {
                assertThatThrownBy(() -> folder.deleteDirectory(name.resolveSibling(notFolder)))
                        .as(notFolder).isInstanceOf(FileSystemException.class)
                        .satisfies(e -> assertThat(e instanceof NotDirectoryException || e.getMessage().contains("Not a directory"))
                                .as("ENOTDIR: %s", e).isTrue());
            }
            assertThatThrownBy(() -> folder.deleteFile(name.resolveSibling("empty"))).isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("Is a directory");
            assertThatThrownBy(() -> folder.deleteDirectory(name.resolveSibling("full"))).isInstanceOf(DirectoryNotEmptyException.class);
            assertThatThrownBy(() -> folder.deleteDirectory(name.resolveSibling("missing"))).isInstanceOf(NoSuchFileException.class);
            assertThatThrownBy(() -> folder.deleteFile(name.resolveSibling("missing"))).isInstanceOf(NoSuchFileException.class);
            assertThat(Files.readString(r.resolve("file"))).isEqualTo("file");
            assertThat(Files.isSymbolicLink(r.resolve("link"))).isTrue();
            assertThat(Files.isDirectory(r.resolve("empty"), LinkOption.NOFOLLOW_LINKS)).isTrue();

            folder.deleteFile(name.resolveSibling("link"));
            assertThat(Files.exists(r.resolve("link"), LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThat(Files.isDirectory(r.resolve("empty"))).as("a link's target stays").isTrue();
            folder.deleteDirectory(name.resolveSibling("empty"));
            folder.deleteFile(name.resolveSibling("file"));
            assertThat(Files.exists(r.resolve("empty"))).isFalse();
            assertThat(Files.exists(r.resolve("file"))).isFalse();
        }
        try (Stream<Path> left = Files.list(r)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("full");
        }
    }

    @SuppressWarnings("unchecked")
    private static SecureDirectoryStream<Path> secure(DirectoryStream<Path> ds) {
        assertThat(ds).isInstanceOf(SecureDirectoryStream.class);
        return (SecureDirectoryStream<Path>) ds;
    }

    /** The rest of a folder stream's relative operations, and what it lists once iterated. */
    @Test
    public void aFolderStreamWorksRelativeToItsFolder() throws IOException {
        Path r = root();
        Path d = Files.createDirectory(r.resolve("d"));
        Files.createDirectory(d.resolve("sub"));
        Files.writeString(d.resolve("sub/inner"), "inner");
        Files.writeString(d.resolve("b"), "old");
        Path name = r.getFileSystem().getPath("x");
        SecureDirectoryStream<Path> closed;
        try (SecureDirectoryStream<Path> folder = secure(Files.newDirectoryStream(d))) {
            closed = folder;
            try (SeekableByteChannel ch = folder.newByteChannel(name.resolveSibling("a"),
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                ch.write(ByteBuffer.wrap("made relative".getBytes(StandardCharsets.UTF_8)));
            }
            assertThat(Files.readString(d.resolve("a"))).isEqualTo("made relative");
            assertThat(folder.getFileAttributeView(name.resolveSibling("a"), BasicFileAttributeView.class)
                    .readAttributes().size()).isEqualTo(13);
            assertThat(folder.getFileAttributeView(BasicFileAttributeView.class).readAttributes().isDirectory()).isTrue();

            folder.move(name.resolveSibling("a"), folder, name.resolveSibling("b"));
            assertThat(Files.readString(d.resolve("b"))).as("a move replaces its target, as rename(2)").isEqualTo("made relative");
            assertThat(Files.exists(d.resolve("a"))).isFalse();

            try (SecureDirectoryStream<Path> sub = folder.newDirectoryStream(name.resolveSibling("sub"))) {
                List<Path> listed = new java.util.ArrayList<>();
                sub.forEach(listed::add);
                assertThat(listed).containsExactly(d.resolve("sub").resolve("inner"));
                sub.deleteFile(name.resolveSibling("inner"));
            }
            assertThat(Files.exists(d.resolve("sub/inner"))).isFalse();
            Files.writeString(d.resolve("late"), "made after the stream opened");
            List<String> names = new java.util.ArrayList<>();
            folder.forEach(p -> names.add(p.getFileName().toString()));
            assertThat(names).containsExactlyInAnyOrder("b", "sub", "late");
        }
        assertThatThrownBy(() -> closed.deleteFile(name.resolveSibling("b"))).isInstanceOf(ClosedDirectoryStreamException.class);
        assertThat(Files.exists(d.resolve("b"))).isTrue();
        assertThatThrownBy(() -> Files.newDirectoryStream(d.resolve("b"))).isInstanceOf(NotDirectoryException.class);
    }

    @Test
    public void errorsMatchTheDefaultProvider() throws IOException {
        Path r = root();
        assertThatThrownBy(() -> Files.readAllBytes(r.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.createDirectory(r.resolve("missing/child"))).isInstanceOf(NoSuchFileException.class);
        Files.createDirectory(r.resolve("d"));
        assertThatThrownBy(() -> Files.createDirectory(r.resolve("d"))).isInstanceOf(FileAlreadyExistsException.class);
        Files.writeString(r.resolve("d/x"), "x");
        assertThatThrownBy(() -> Files.delete(r.resolve("d"))).isInstanceOf(DirectoryNotEmptyException.class);
        assertThatThrownBy(() -> Files.writeString(r.resolve("d/x"), "y", StandardOpenOption.CREATE_NEW))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> Files.delete(r.resolve("nothing"))).isInstanceOf(NoSuchFileException.class);
        Files.delete(r.resolve("d/x"));
        Files.delete(r.resolve("d"));
        assertThat(Files.exists(r.resolve("d"))).isFalse();
    }

    @Test
    public void movesReplaceLikeTheDefaultProvider() throws IOException {
        Path r = root();
        Files.writeString(r.resolve("a"), "A");
        Files.writeString(r.resolve("b"), "B");
        assertThatThrownBy(() -> Files.move(r.resolve("a"), r.resolve("b"))).isInstanceOf(FileAlreadyExistsException.class);
        Files.move(r.resolve("a"), r.resolve("b"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(Files.readString(r.resolve("b"))).isEqualTo("A");
        assertThat(Files.exists(r.resolve("a"))).isFalse();
        Files.createDirectories(r.resolve("dir/sub"));
        Files.writeString(r.resolve("dir/sub/file"), "deep");
        Files.move(r.resolve("dir"), r.resolve("moved"));
        assertThat(Files.readString(r.resolve("moved/sub/file"))).isEqualTo("deep");
        Files.createDirectory(r.resolve("empty"));
        Files.move(r.resolve("b"), r.resolve("empty"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.isRegularFile(r.resolve("empty"))).isTrue();
        assertThatThrownBy(() -> Files.move(r.resolve("empty"), r.resolve("moved"), StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(DirectoryNotEmptyException.class);
    }

    @Test
    public void longNamesCanBeCreatedListedAndRenamedBetweenForms() throws IOException {
        Path r = root();
        String longName = "l".repeat(200) + ".txt";
        Files.writeString(r.resolve(longName), "long");
        Files.createDirectory(r.resolve("d".repeat(180)));
        Files.writeString(r.resolve("d".repeat(180)).resolve("in"), "in");
        try (Stream<Path> s = Files.list(r)) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("d".repeat(180), longName);
        }
        Files.move(r.resolve(longName), r.resolve("short.txt"));
        Files.move(r.resolve("short.txt"), r.resolve("m".repeat(150)));
        assertThat(Files.readString(r.resolve("m".repeat(150)))).isEqualTo("long");
        Files.move(r.resolve("d".repeat(180)), r.resolve("shortdir"));
        assertThat(Files.readString(r.resolve("shortdir/in"))).isEqualTo("in");
        String max = "é".repeat(127) + "x"; // 255 bytes in UTF-8
        Files.writeString(r.resolve(max), "max");
        assertThat(Files.readString(r.resolve(max))).isEqualTo("max");
        assertThatThrownBy(() -> Files.writeString(r.resolve(max + "y"), "too long")).isInstanceOf(IOException.class);
    }

    @Test
    public void symlinksAndCopies() throws IOException {
        Path r = root();
        Files.writeString(r.resolve("target.txt"), "content");
        Files.createSymbolicLink(r.resolve("link"), r.getFileSystem().getPath("target.txt"));
        assertThat(Files.readSymbolicLink(r.resolve("link")).toString()).isEqualTo("target.txt");
        assertThat(Files.isSymbolicLink(r.resolve("link"))).isTrue();
        assertThat(Files.readString(r.resolve("link"))).isEqualTo("content");
        assertThat(Files.readAttributes(r.resolve("link"), BasicFileAttributes.class).isRegularFile()).isTrue();
        Files.createSymbolicLink(r.resolve("dangling"), r.getFileSystem().getPath("nowhere"));
        assertThat(Files.exists(r.resolve("dangling"))).isFalse();
        assertThat(Files.exists(r.resolve("dangling"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        Files.copy(r.resolve("target.txt"), r.resolve("copy.txt"));
        assertThat(Files.readString(r.resolve("copy.txt"))).isEqualTo("content");
        Files.delete(r.resolve("link"));
        assertThat(Files.exists(r.resolve("target.txt"))).isTrue();
    }

    @Test
    public void timesCanBeSetAndListingsSeeEveryEntryType() throws IOException {
        Path r = root();
        Path f = Files.writeString(r.resolve("t"), "t");
        FileTime t = FileTime.fromMillis(1_600_000_000_000L);
        Files.setLastModifiedTime(f, t);
        assertThat(Files.getLastModifiedTime(f).toMillis()).isEqualTo(t.toMillis());
        Files.createDirectory(r.resolve("dir"));
        Files.createSymbolicLink(r.resolve("sym"), r.getFileSystem().getPath("t"));
        try (Stream<Path> s = Files.list(r)) {
            List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).containsExactly("dir", "sym", "t");
        }
        assertThat(Files.isDirectory(r.resolve("dir"))).isTrue();
        assertThat(Files.isSameFile(f, r.resolve("dir/../t"))).isTrue();
    }

    /**
     * A new file takes the permissions it is created with, where the store keeps permissions (the
     * others refuse them, as the default provider does on Windows); a file that exists keeps its own.
     * The bits chosen are ones a umask of 022 or 027 keeps.
     */
    @Test
    public void aNewFileTakesThePermissionsItIsCreatedWith() throws IOException {
        Path r = root();
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        if (!r.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThatThrownBy(() -> Files.createFile(r.resolve("a"), PosixFilePermissions.asFileAttribute(ownerOnly)))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThat(Files.exists(r.resolve("a"), LinkOption.NOFOLLOW_LINKS)).isFalse();
            return;
        }
        Path a = Files.createFile(r.resolve("a"), PosixFilePermissions.asFileAttribute(ownerOnly));
        assertThat(Files.getPosixFilePermissions(a, LinkOption.NOFOLLOW_LINKS)).isEqualTo(ownerOnly);

        Set<PosixFilePermission> readOnly = PosixFilePermissions.fromString("r--r-----");
        Path b = r.resolve("b");
        try (FileChannel ch = FileChannel.open(b, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(readOnly))) {
            ch.write(ByteBuffer.wrap("written through the channel that made it".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(Files.getPosixFilePermissions(b, LinkOption.NOFOLLOW_LINKS)).isEqualTo(readOnly);
        assertThat(Files.readString(b)).isEqualTo("written through the channel that made it");

        try (FileChannel ch = FileChannel.open(a, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")))) {
            assertThat(ch.size()).isZero();
        }
        assertThat(Files.getPosixFilePermissions(a, LinkOption.NOFOLLOW_LINKS)).isEqualTo(ownerOnly);
    }

    /**
     * A new folder takes the permissions it is created with, where the store keeps permissions (the
     * others refuse them); one its owner may not write into is still made whole, and lists. The bits
     * chosen are ones a umask of 022 or 027 keeps.
     */
    @Test
    public void aNewFolderTakesThePermissionsItIsCreatedWith() throws IOException {
        Path r = root();
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rwx------");
        if (!r.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThatThrownBy(() -> Files.createDirectory(r.resolve("d"), PosixFilePermissions.asFileAttribute(ownerOnly)))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThat(Files.exists(r.resolve("d"), LinkOption.NOFOLLOW_LINKS)).isFalse();
            return;
        }
        Path d = Files.createDirectory(r.resolve("d"), PosixFilePermissions.asFileAttribute(ownerOnly));
        assertThat(Files.getPosixFilePermissions(d, LinkOption.NOFOLLOW_LINKS)).isEqualTo(ownerOnly);
        Files.writeString(d.resolve("inside"), "a file in it");
        assertThat(Files.readString(d.resolve("inside"))).isEqualTo("a file in it");

        Set<PosixFilePermission> readOnly = PosixFilePermissions.fromString("r-xr-x---");
        Path ro = Files.createDirectory(r.resolve("ro"), PosixFilePermissions.asFileAttribute(readOnly));
        assertThat(Files.getPosixFilePermissions(ro, LinkOption.NOFOLLOW_LINKS)).isEqualTo(readOnly);
        assertThat(Files.isDirectory(ro, LinkOption.NOFOLLOW_LINKS)).isTrue();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(ro)) {
            assertThat(entries.iterator().hasNext()).isFalse();
        }
        Files.setPosixFilePermissions(ro, ownerOnly); // so that the tree can be cleared as any user
    }

    /** An initial attribute that cannot be set at creation is refused before anything is made. */
    @Test
    public void anInitialAttributeOtherThanPermissionsIsRefusedAndNothingIsMade() throws IOException {
        Path r = root();
        FileAttribute<FileTime> modified = new FileAttribute<>() {
            @Override
            public String name() {
                return "basic:lastModifiedTime";
            }

            @Override
            public FileTime value() {
                return FileTime.fromMillis(0);
            }
        };
        assertThatThrownBy(() -> Files.createFile(r.resolve("f"), modified)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(Files.exists(r.resolve("f"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThatThrownBy(() -> Files.createDirectory(r.resolve("d"), modified)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(Files.exists(r.resolve("d"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
