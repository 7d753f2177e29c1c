package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter's operations one by one, through a real mount of a plain folder, checked on both sides. */
class AdapterOperationsTest {
    private static final int S_IFMT = 0170000;

    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();
    private Path backing;
    private Path mnt;
    private FuseMount mount;
    private RecordingAdapter adapter;

    @BeforeEach
    void mount() throws IOException {
        backing = Files.createDirectory(tmp.resolve("backing"));
        mount = mounts.mount(backing, tmp.resolve("mnt"), MountOptions.defaults(false), (root, uid, gid) -> {
            adapter = new RecordingAdapter(root, uid, gid);
            return adapter;
        });
        mnt = mount.mountPoint();
    }

    @AfterEach
    void unmount() throws Exception {
        mounts.close();
    }

    private static int type(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT;
    }

    @Test
    void everyKindOfNodeIsLookedUpWithItsType() throws Exception {
        Files.writeString(backing.resolve("file"), "f");
        Files.createDirectory(backing.resolve("dir"));
        Files.createSymbolicLink(backing.resolve("link"), Path.of("file"));
        Shell.ok(backing, "mkfifo", "fifo");
        for (String name : List.of("file", "dir", "link", "fifo")) {
            assertThat(type(mnt.resolve(name))).as(name).isEqualTo(type(backing.resolve(name)));
        }
        assertThat(type(mnt)).isEqualTo(0040000);
        assertThat(Files.getAttribute(mnt.resolve("file"), "unix:nlink")).isEqualTo(1);
        assertThat(Files.getAttribute(mnt.resolve("file"), "unix:uid"))
                .isEqualTo(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    @Test
    void chmodIsStoredOnTheBackingEntryAndCreateKeepsTheMode() throws IOException {
        Path f = Files.writeString(mnt.resolve("x"), "x");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r-x------"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backing.resolve("x")))).isEqualTo("r-x------");
        Files.createDirectory(mnt.resolve("d"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x---")));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backing.resolve("d")))).isEqualTo("rwx--x---");
    }

    @Test
    void fsyncOfAFolderRemovedWhileOpenSucceeds() throws Exception {
        Files.createDirectory(mnt.resolve("gone"));
        // libfuse gives the fsyncdir of a removed folder no path (flag_nullpath_ok): ext4 answers 0.
        String out = Shell.ok(tmp, "python3", "-c", String.join("\n",
                "import os, sys",
                "fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)",
                "os.rmdir(sys.argv[1])",
                "os.fsync(fd)",
                "os.close(fd)",
                "print('synced')"), mnt.resolve("gone").toString());
        assertThat(out.strip()).isEqualTo("synced");
        assertThat(Files.exists(backing.resolve("gone"))).isFalse();
    }

    @Test
    void chmodOfASymlinkItselfChangesNothing() throws IOException {
        // Linux never sends it (chmod follows links); called directly, as a foreign libfuse could.
        Path target = Files.writeString(backing.resolve("target"), "t");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        Files.createSymbolicLink(backing.resolve("link"), Path.of("target"));
        new AttributeOps(new Backing(backing, 0, 0)).chmod("/link", 0777);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
        assertThatThrownBy(() -> new AttributeOps(new Backing(backing, 0, 0)).chmod("/missing", 0600))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
    }

    @Test
    void anUnlinkThatReachesAFolderDeletesOnlyAnEmptyOne() throws IOException {
        // The kernel never sends it for a folder it knows; only a sync client's swap in between can.
        TreeOps tree = new TreeOps(new Backing(backing, 0, 0), NameForm.NFC, new ContentChanges());
        Path full = Files.createDirectory(backing.resolve("full"));
        Files.writeString(full.resolve("kept"), "k");
        assertThatThrownBy(() -> tree.unlink("/full")).isInstanceOf(FileSystemException.class).hasMessageContaining("Is a directory");
        assertThat(full.resolve("kept")).hasContent("k");
        Files.createDirectory(backing.resolve("empty"));
        tree.unlink("/empty");
        assertThat(backing.resolve("empty")).doesNotExist();
    }

    @Test
    void utimensSetsEitherTimeOrNow() throws Exception {
        Path f = Files.writeString(mnt.resolve("t"), "t");
        Shell.ok(mnt, "touch", "-m", "-d", "2001-02-03 04:05:06.789", "t");
        FileTime m = Files.getLastModifiedTime(backing.resolve("t"));
        assertThat(m.toInstant().toString()).isEqualTo("2001-02-03T04:05:06.789Z");
        Shell.ok(mnt, "touch", "-a", "-d", "2002-01-01 00:00:00", "t"); // UTIME_OMIT for mtime
        assertThat(Files.getLastModifiedTime(backing.resolve("t"))).isEqualTo(m);
        assertThat(Files.getAttribute(backing.resolve("t"), "lastAccessTime").toString()).startsWith("2002-01-01T00:00:00");
        long before = System.currentTimeMillis() - 2_000;
        Shell.ok(mnt, "touch", "t"); // UTIME_NOW for both
        assertThat(Files.getLastModifiedTime(f).toMillis()).isGreaterThan(before);
    }

    @Test
    void statfsComesFromTheBackingStore() throws IOException {
        FileStore mounted = Files.getFileStore(mnt);
        FileStore underlying = Files.getFileStore(backing);
        assertThat(mounted.type()).isEqualTo("fuse.coffer");
        assertThat(mounted.getTotalSpace()).isEqualTo(underlying.getTotalSpace() / 4096 * 4096);
        assertThat(mounted.getUsableSpace()).isBetween(underlying.getUsableSpace() - (64 << 20), underlying.getUsableSpace() + (64 << 20));
    }

    @Test
    void accessAnswersForEachMode() throws IOException {
        Path f = Files.writeString(mnt.resolve("a"), "a");
        assertThat(Files.isReadable(f)).isTrue();
        assertThat(Files.isWritable(f)).isTrue();
        assertThat(Files.isExecutable(f)).isFalse();
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.isExecutable(f)).isTrue();
        assertThat(Files.isReadable(mnt.resolve("missing"))).isFalse();
    }

    @Test
    void hardLinksFifosForeignOwnersAndXattrsAnswerAnErrnoNotACrash() throws Exception {
        Path f = Files.writeString(mnt.resolve("f"), "f");
        assertThatThrownBy(() -> Files.createLink(mnt.resolve("hard"), f))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not permitted");
        assertThat(Shell.run(mnt, "mkfifo", "pipe").output()).contains("Operation not permitted");
        assertThat(Shell.run(mnt, "chown", "12345", "f").output()).contains("Operation not permitted");
        Shell.ok(mnt, "chown", Files.getAttribute(f, "unix:uid") + ":" + Files.getAttribute(f, "unix:gid"), "f");
        UserDefinedFileAttributeView xattrs = Files.getFileAttributeView(f, UserDefinedFileAttributeView.class);
        assertThatThrownBy(() -> xattrs.write("user.tag", ByteBuffer.wrap(new byte[] {1})))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not supported");
        assertThatThrownBy(xattrs::list).isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not supported");
        assertThat(Files.readString(f)).isEqualTo("f"); // and the mount still works
    }

    @Test
    void anUnlinkedOpenFileKeepsWorkingUntilClosedAndLeavesNothing() throws Exception {
        Path dir = Files.createDirectory(mnt.resolve("dir"));
        Path f = dir.resolve("open");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("before".getBytes(StandardCharsets.US_ASCII)));
            Files.delete(f);
            assertThat(Files.exists(f)).isFalse();
            try (Stream<Path> s = Files.list(dir)) {
                assertThat(s.toList()).as("not even a .fuse_hidden file").isEmpty();
            }
            ch.write(ByteBuffer.wrap(" and after".getBytes(StandardCharsets.US_ASCII)));
            assertThat(ch.size()).as("fstat of the unlinked file").isEqualTo(16);
            ByteBuffer back = ByteBuffer.allocate(16);
            ch.read(back, 0);
            assertThat(new String(back.array(), StandardCharsets.US_ASCII)).isEqualTo("before and after");
            ch.truncate(6);
            ch.force(true);
        }
        awaitReleased();
        Path kept = backing.resolve(Backing.UNLINKED);
        long deadline = System.currentTimeMillis() + 5_000; // libfuse unlinks the kept file right after release
        while (Files.list(kept).findAny().isPresent() && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        try (Stream<Path> s = Files.list(kept)) {
            assertThat(s.toList()).as("the kept file is gone once closed").isEmpty();
        }
        mounts.close();
        try (Stream<Path> s = Files.list(backing)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).as("the reserved folder goes at unmount").containsExactly("dir");
        }
    }

    @Test
    void theFolderOfAnUnlinkedOpenFileCanBeRemoved() throws Exception {
        Path dir = Files.createDirectory(mnt.resolve("dir"));
        try (FileChannel ch = FileChannel.open(dir.resolve("open"), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            Files.delete(dir.resolve("open"));
            Files.delete(dir); // rm -rf of a folder while a program still has a file in it open
            try (Stream<Path> s = Files.list(mnt)) {
                assertThat(s.toList()).isEmpty();
            }
            assertThatThrownBy(() -> Files.list(mnt.resolve(Backing.UNLINKED)))
                    .isInstanceOf(java.nio.file.AccessDeniedException.class);
            ch.write(ByteBuffer.wrap("still".getBytes(StandardCharsets.US_ASCII)), 0);
            ByteBuffer back = ByteBuffer.allocate(5);
            ch.read(back, 0);
            assertThat(new String(back.array(), StandardCharsets.US_ASCII)).isEqualTo("still");
        }
        mounts.close();
        try (Stream<Path> s = Files.list(backing)) {
            assertThat(s.toList()).as("what libfuse could no longer unlink is cleared at unmount").isEmpty();
        }
    }

    /** The kernel sends release after close(2) returns. */
    private void awaitReleased() {
        long deadline = System.currentTimeMillis() + 5_000;
        while (adapter.openHandles() > 0 && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(adapter.openHandles()).isZero();
    }

    @Test
    void truncateByPathAndByHandleShrinksAndGrowsWithZeros() throws Exception {
        Path f = Files.write(mnt.resolve("t"), new byte[] {1, 2, 3, 4, 5});
        Shell.ok(mnt, "truncate", "-s", "2", "t");
        assertThat(Files.readAllBytes(backing.resolve("t"))).containsExactly(1, 2);
        Shell.ok(mnt, "truncate", "-s", "100000", "t");
        byte[] grown = Files.readAllBytes(f);
        assertThat(grown).hasSize(100_000);
        assertThat(grown[0]).isEqualTo((byte) 1);
        assertThat(Arrays.copyOfRange(grown, 2, grown.length)).containsOnly(0);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(1);
            ch.force(false);
        }
        assertThat(Files.readAllBytes(backing.resolve("t"))).containsExactly(1);
        awaitReleased();
    }

    @Test
    void bigRequestsArriveWhole() throws IOException {
        byte[] data = new byte[4 << 20];
        new Random(7).nextBytes(data);
        try (FileChannel ch = FileChannel.open(mnt.resolve("big"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(data)); // one write(2) of 4 MiB: the kernel splits it at max_write
        }
        assertThat(adapter.largestWrite.get()).isEqualTo(128 * 1024);
        assertThat(Files.readAllBytes(mnt.resolve("big"))).isEqualTo(data);
        assertThat(Files.readAllBytes(backing.resolve("big"))).isEqualTo(data);
        assertThat(adapter.largestRead.get()).isGreaterThanOrEqualTo(128 * 1024);
    }

    @Test
    void everyCallbackRunsOnAPooledJavaThread() throws IOException {
        Files.writeString(mnt.resolve("f"), "x".repeat(500_000));
        Files.readString(mnt.resolve("f"));
        assertThat(adapter.threads).isNotEmpty().allMatch(n -> n.startsWith("coffer-fuse-"));
        assertThat(mount.workersStarted()).isBetween(1, MountOptions.DEFAULT_MAX_WORKERS);
    }

    @Test
    void manyThreadsWriteDifferentFilesAtOnce() throws Exception {
        int n = 16;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<byte[]>> written = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                written.add(pool.submit(() -> {
                    byte[] data = new byte[1_000_000 + id];
                    new Random(id).nextBytes(data);
                    try (FileChannel ch = FileChannel.open(mnt.resolve("w" + id), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                        for (int off = 0; off < data.length; off += 10_000) {
                            ch.write(ByteBuffer.wrap(data, off, Math.min(10_000, data.length - off)), off);
                        }
                    }
                    return data;
                }));
            }
            List<byte[]> expected = new ArrayList<>();
            for (Future<byte[]> f : written) {
                expected.add(f.get());
            }
            for (int i = 0; i < n; i++) {
                assertThat(Files.readAllBytes(backing.resolve("w" + i))).isEqualTo(expected.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(mount.workersStarted()).isGreaterThan(1);
    }
}
