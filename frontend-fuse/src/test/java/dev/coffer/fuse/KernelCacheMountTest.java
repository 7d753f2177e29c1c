package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * The kernel keeps names and attributes for {@link MountOptions#CACHE_SECONDS} s: it must use
 * them (one lookup for repeated stats) and never show what was true before a change made through
 * the mount. Every check below runs right after the change, well inside the cache time, through
 * a real mount of a real vault and, for a second process's view, through {@code stat} and {@code cat}.
 */
class KernelCacheMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;
    private CountingAdapter adapter;

    private void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false), (root, uid, gid) -> adapter = new CountingAdapter(root, uid, gid));
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (vm != null) {
            vm.close();
        }
    }

    @Test
    void statsWithinTheCacheTimeAreAnsweredByTheKernel() throws Exception {
        mount();
        Path f = vm.mnt.resolve("once.txt");
        Files.createFile(f);
        assertThat(Files.size(f)).isZero();
        int before = adapter.getattrs.get();
        for (int i = 0; i < 3; i++) {
            Thread.sleep(700); // 2.1 s in all: more than libfuse's default of 1 s, less than ours
            for (int j = 0; j < 10; j++) {
                assertThat(Files.size(f)).isZero();
            }
        }
        assertThat(adapter.getattrs.get() - before).as("getattr calls for 30 stats in 2.1 s").isZero();
    }

    @Test
    void sizeAndContentFollowEveryWriteAtOnce() throws Exception {
        mount();
        Path f = vm.mnt.resolve("f.txt");
        Files.writeString(f, "a");
        assertSeen(f, "a");
        Files.writeString(f, "b".repeat(5000), StandardOpenOption.APPEND);
        assertSeen(f, "a" + "b".repeat(5000));
        Files.writeString(f, "short"); // O_TRUNC
        assertSeen(f, "short");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(2);
        }
        assertSeen(f, "sh");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("Z".getBytes(StandardCharsets.UTF_8)), 9000); // grows with a hole
        }
        assertSeen(f, "sh" + "\0".repeat(8998) + "Z");
    }

    @Test
    void aReaderThatStaysOpenSeesAnotherHandlesWrites() throws Exception {
        mount();
        Path f = vm.mnt.resolve("shared.txt");
        Files.writeString(f, "old old old");
        try (FileChannel reader = FileChannel.open(f, StandardOpenOption.READ)) {
            assertThat(read(reader)).isEqualTo("old old old");
            try (FileChannel writer = FileChannel.open(f, StandardOpenOption.WRITE)) {
                writer.write(ByteBuffer.wrap("NEW".getBytes(StandardCharsets.UTF_8)), 0);
                writer.write(ByteBuffer.wrap(" and longer".getBytes(StandardCharsets.UTF_8)), 11);
            }
            assertThat(reader.size()).isEqualTo(22);
            assertThat(read(reader)).isEqualTo("NEW old old and longer");
        }
        assertSeen(f, "NEW old old and longer");
    }

    @Test
    void namesFollowRenameDeleteAndRecreateAtOnce() throws Exception {
        mount();
        Path f = vm.mnt.resolve("doc.txt");
        Path tmpFile = vm.mnt.resolve("doc.txt.tmp");
        Files.writeString(f, "first version");
        assertSeen(f, "first version");
        Files.writeString(tmpFile, "second, longer version");
        Files.move(tmpFile, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertSeen(f, "second, longer version");
        assertThat(Files.exists(tmpFile)).isFalse();

        Files.delete(f);
        assertThat(Files.exists(f)).isFalse();
        assertThat(Shell.run(vm.mnt, "stat", "doc.txt").exit()).isNotZero();
        Files.createDirectory(f);
        assertThat(Files.isDirectory(f)).isTrue();
        assertThat(Shell.sh(vm.mnt, "stat -c %F doc.txt").trim()).isEqualTo("directory");
        Files.delete(f);
        Files.writeString(f, "a file again");
        assertSeen(f, "a file again");

        Path dir = vm.mnt.resolve("folder");
        Files.createDirectories(dir.resolve("inner"));
        Files.writeString(dir.resolve("inner/x"), "x");
        Files.move(dir, vm.mnt.resolve("moved"));
        assertThat(Files.exists(dir)).isFalse();
        assertSeen(vm.mnt.resolve("moved/inner/x"), "x");
    }

    @Test
    void permissionsAndTimesFollowAtOnce() throws Exception {
        mount();
        Path f = vm.mnt.resolve("p.sh");
        Files.writeString(f, "echo hi");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(Shell.sh(vm.mnt, "stat -c %a p.sh").trim()).isEqualTo("750");
        FileTime t = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(f, t);
        assertThat(Files.getLastModifiedTime(f)).isEqualTo(t);
        assertThat(Shell.sh(vm.mnt, "stat -c %Y p.sh").trim()).isEqualTo("1000000000");
    }

    /** This process and another one ({@code stat}, {@code cat}) see exactly {@code content}. */
    private static void assertSeen(Path f, String content) throws Exception {
        byte[] expected = content.getBytes(StandardCharsets.UTF_8);
        assertThat(Files.size(f)).isEqualTo(expected.length);
        assertThat(Files.readAllBytes(f)).isEqualTo(expected);
        String name = f.getFileName().toString();
        assertThat(Shell.ok(f.getParent(), "stat", "-c", "%s", name).trim()).isEqualTo(Integer.toString(expected.length));
        assertThat(Shell.ok(f.getParent(), "sha256sum", name).split(" ")[0]).isEqualTo(sha256(expected));
    }

    private static String read(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate((int) ch.size());
        while (b.hasRemaining() && ch.read(b, b.position()) >= 0) {
            // read until full or end
        }
        return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
    }

    private static String sha256(byte[] data) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(data));
    }

    /**
     * An open of a file whose size the kernel has right (nothing changed it behind the mount) leaves
     * the kernel's attributes alone: reading it to its end (the last read asks for the size if the
     * kernel's attributes were dropped) asks nothing. No stat in between: a read makes the kernel's
     * access time stale, and a stat would ask for that.
     */
    @Test
    void openingAnUnchangedFileKeepsTheKernelsAttributes() throws Exception {
        mount();
        Path f = Files.write(vm.mnt.resolve("same.bin"), new byte[20_000]);
        assertThat(Files.size(f)).isEqualTo(20_000);
        int before = adapter.getattrs.get();
        for (int i = 0; i < 3; i++) {
            try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(f)) {
                java.nio.ByteBuffer piece = java.nio.ByteBuffer.allocate(8192);
                long total = 0;
                for (int n; (n = in.read(piece.clear())) > 0; ) {
                    total += n;
                }
                assertThat(total).isEqualTo(20_000);
            }
        }
        assertThat(adapter.getattrs.get() - before).as("getattr calls for three opens and reads to the end").isZero();
    }

    /** Counts getattr calls (lookups and stats that reach the file system). */
    static final class CountingAdapter extends FuseAdapter {
        final AtomicInteger getattrs = new AtomicInteger();

        CountingAdapter(Path root, long uid, long gid) {
            super(root, uid, gid);
        }

        @Override
        public int getattr(String path, FileStat stat) {
            getattrs.incrementAndGet();
            return super.getattr(path, stat);
        }

        @Override
        public int fgetattr(String path, FileStat stat, FuseFileInfo fi) {
            getattrs.incrementAndGet();
            return super.fgetattr(path, stat, fi);
        }
    }
}
