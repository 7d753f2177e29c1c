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
import java.util.ArrayList;
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

/** Ordinary tools on a real mount of a real vault, each checked for content. */
class ToolsOnVaultTest {
    /**
     * What find prints for every entry: path, type, mode, size, mtime in nanoseconds (links: target
     * and mtime in seconds: rsync and cp leave a link's time alone when the second already matches,
     * on any file system).
     */
    private static final String LISTING = "find . -mindepth 1 \\( -type l -printf '%P l %l %Ts\\n' \\) -o "
            + "\\( -type d -printf '%P d %m\\n' \\) -o -printf '%P f %m %s %T@\\n' | LC_ALL=C sort";

    @TempDir
    Path tmp;

    private VaultMount vault;
    private Path mnt;

    @BeforeEach
    void mount() throws IOException {
        vault = new VaultMount(tmp);
        mnt = vault.mnt;
    }

    @AfterEach
    void unmount() throws Exception {
        vault.close();
    }

    private void assertSameTree(Path expected, Path actual) throws Exception {
        Shell.ok(tmp, "diff", "-r", "--no-dereference", expected.toString(), actual.toString());
        assertThat(Shell.sh(actual, LISTING)).isEqualTo(Shell.sh(expected, LISTING));
    }

    @Test
    void cpArchiveOfATreeIsIdentical() throws Exception {
        Path src = TreeMaker.make(tmp.resolve("src"));
        Shell.ok(tmp, "cp", "-a", src.toString(), mnt.resolve("copy").toString());
        assertSameTree(src, mnt.resolve("copy"));
        Shell.ok(tmp, "cp", "-a", mnt.resolve("copy").toString(), tmp.resolve("back").toString());
        assertSameTree(src, tmp.resolve("back"));
    }

    @Test
    void tarExtractsIntoAndArchivesOutOfTheVault() throws Exception {
        Path src = TreeMaker.make(tmp.resolve("src"));
        Shell.ok(src, "tar", "--format=posix", "-cf", mnt.resolve("in.tar").toString(), "."); // keeps nanosecond times
        Files.createDirectory(mnt.resolve("x"));
        Shell.ok(mnt.resolve("x"), "tar", "-xpf", mnt.resolve("in.tar").toString());
        assertSameTree(src, mnt.resolve("x"));
        Shell.ok(mnt.resolve("x"), "tar", "--format=posix", "-cf", tmp.resolve("out.tar").toString(), ".");
        Files.createDirectory(tmp.resolve("y"));
        Shell.ok(tmp.resolve("y"), "tar", "-xpf", tmp.resolve("out.tar").toString());
        assertSameTree(src, tmp.resolve("y"));
    }

    @Test
    void rsyncArchiveCopiesAndThenFindsNothingToDo() throws Exception {
        Path src = TreeMaker.make(tmp.resolve("src"));
        Shell.ok(tmp, "rsync", "-a", src + "/", mnt.resolve("r") + "/");
        assertSameTree(src, mnt.resolve("r"));
        String again = Shell.ok(tmp, "rsync", "-a", "--itemize-changes", src + "/", mnt.resolve("r") + "/");
        assertThat(again).as("sizes, times and modes were kept").isEmpty();
        Files.writeString(src.resolve("a/file2.bin"), "changed");
        Shell.ok(tmp, "rsync", "-a", "--delete", src + "/", mnt.resolve("r") + "/");
        assertSameTree(src, mnt.resolve("r"));
    }

    @Test
    void gitCommitsAndFsckIsClean() throws Exception {
        Path repo = Files.createDirectory(mnt.resolve("repo"));
        Shell.ok(repo, "git", "init", "-q", "-b", "main");
        Shell.ok(repo, "git", "config", "user.name", "Coffer Test");
        Shell.ok(repo, "git", "config", "user.email", "test@coffer.invalid");
        TreeMaker.make(repo.resolve("tree"));
        Files.writeString(repo.resolve("log.txt"), "start\n");
        Shell.ok(repo, "git", "add", "-A");
        Shell.ok(repo, "git", "commit", "-q", "-m", "first");
        for (int i = 0; i < 20; i++) {
            Files.writeString(repo.resolve("log.txt"), "line " + i + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Shell.ok(repo, "git", "commit", "-q", "-a", "-m", "change " + i);
        }
        Shell.ok(repo, "git", "mv", "tree/a", "tree/moved");
        Shell.ok(repo, "git", "commit", "-q", "-m", "move");
        Shell.ok(repo, "git", "gc", "-q");
        Shell.ok(repo, "git", "fsck", "--full", "--strict");
        assertThat(Shell.ok(repo, "git", "status", "--porcelain")).isEmpty();
        assertThat(Shell.ok(repo, "git", "rev-list", "--count", "HEAD").trim()).isEqualTo("22");
        Shell.ok(tmp, "git", "clone", "-q", repo.toString(), tmp.resolve("clone").toString());
        // git keeps no empty folders
        Shell.ok(tmp, "diff", "-r", "--no-dereference", "--exclude=.git", "--exclude=empty", repo.toString(), tmp.resolve("clone").toString());
    }

    @Test
    void sqliteTakesAThousandInsertsAndPassesItsIntegrityCheck() throws Exception {
        Path db = mnt.resolve("data.db");
        Shell.ok(mnt, "sqlite3", db.toString(), "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, blob BLOB);");
        StringBuilder inserts = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            inserts.append("INSERT INTO t (name, blob) VALUES ('row ").append(i).append("', randomblob(").append(100 + i).append("));\n");
        }
        Path script = Files.writeString(tmp.resolve("inserts.sql"), inserts);
        Shell.sh(mnt, "sqlite3 " + db + " < " + script);
        assertThat(Shell.ok(mnt, "sqlite3", db.toString(), "PRAGMA integrity_check;").trim()).isEqualTo("ok");
        assertThat(Shell.ok(mnt, "sqlite3", db.toString(), "SELECT count(*), sum(length(blob)) FROM t;").trim())
                .isEqualTo("1000|" + (100 * 1000 + 999 * 1000 / 2));
        try (Stream<Path> s = Files.list(mnt)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).as("no journal left").containsExactly("data.db");
        }
    }

    @Test
    void theEditorSavePatternReplayedHundredsOfTimesKeepsEveryVersionExact() throws IOException {
        Path file = mnt.resolve("document.txt");
        Random rnd = new Random(3);
        byte[] last = new byte[0];
        for (int i = 0; i < 300; i++) {
            byte[] content = new byte[rnd.nextInt(20_000)];
            rnd.nextBytes(content);
            Path temp = mnt.resolve(".document.txt.swp" + (i % 3));
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(content));
                ch.force(true);
            }
            try (FileChannel reader = i % 2 == 0 && Files.exists(file) ? FileChannel.open(file) : null) {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE); // rename(2) over the original, which may be open
                if (reader != null) {
                    ByteBuffer old = ByteBuffer.allocate(last.length);
                    reader.read(old, 0);
                    assertThat(old.array()).as("a reader keeps the version it opened").isEqualTo(last);
                }
            }
            assertThat(Files.readAllBytes(file)).as("version %d", i).isEqualTo(content);
            last = content;
        }
        try (Stream<Path> s = Files.list(mnt)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("document.txt");
        }
    }

    @Test
    void mvOfAFolderWithOpenFilesInside() throws Exception {
        Files.createDirectories(mnt.resolve("dir/sub"));
        Files.writeString(mnt.resolve("dir/sub/read.txt"), "read me");
        try (FileChannel writer = FileChannel.open(mnt.resolve("dir/written.txt"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             FileChannel reader = FileChannel.open(mnt.resolve("dir/sub/read.txt"))) {
            writer.write(ByteBuffer.wrap("before ".getBytes(StandardCharsets.US_ASCII)));
            Shell.ok(mnt, "mv", "dir", "moved");
            writer.write(ByteBuffer.wrap("after".getBytes(StandardCharsets.US_ASCII)));
            writer.force(true);
            ByteBuffer b = ByteBuffer.allocate(7);
            reader.read(b, 0);
            assertThat(new String(b.array(), StandardCharsets.US_ASCII)).isEqualTo("read me");
        }
        assertThat(Files.exists(mnt.resolve("dir"))).isFalse();
        assertThat(Files.readString(mnt.resolve("moved/written.txt"))).isEqualTo("before after");
        assertThat(Files.readString(mnt.resolve("moved/sub/read.txt"))).isEqualTo("read me");
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
                    byte[] data = new byte[2_000_000 + 4097 * id];
                    new Random(id).nextBytes(data);
                    Path f = mnt.resolve("dir" + (id % 4)).resolve("w" + id);
                    Files.createDirectories(f.getParent());
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                        for (int off = 0; off < data.length; off += 50_000) {
                            ch.write(ByteBuffer.wrap(data, off, Math.min(50_000, data.length - off)), off);
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
                assertThat(Files.readAllBytes(mnt.resolve("dir" + (i % 4)).resolve("w" + i))).isEqualTo(expected.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFileLargerThan4GiB() throws Exception {
        long offset = (4L << 30) + 1;
        long needed = offset + (64L << 20);
        assertThat(Files.getFileStore(tmp).getUsableSpace()).as("free space for a %d byte vault file in %s", needed, tmp)
                .isGreaterThan(needed + (1L << 30));
        Path chunk = tmp.resolve("chunk");
        byte[] data = new byte[64 << 20];
        new Random(11).nextBytes(data);
        Files.write(chunk, data);
        Shell.ok(mnt, "dd", "if=" + chunk, "of=big", "bs=1M", "seek=" + offset, "oflag=seek_bytes", "conv=notrunc,fsync",
                "status=none");
        assertThat(Files.size(mnt.resolve("big"))).isEqualTo(needed);
        Shell.ok(mnt, "dd", "if=big", "of=" + tmp.resolve("back"), "bs=1M", "skip=" + offset, "iflag=skip_bytes", "status=none");
        Shell.ok(tmp, "cmp", chunk.toString(), tmp.resolve("back").toString());
        try (FileChannel ch = FileChannel.open(mnt.resolve("big"))) {
            ByteBuffer around = ByteBuffer.allocate(4);
            ch.read(around, offset - 2);
            assertThat(around.array()).containsExactly(0, 0, data[0], data[1]);
        }
    }
}
