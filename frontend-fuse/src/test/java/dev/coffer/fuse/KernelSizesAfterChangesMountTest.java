package dev.coffer.fuse;

import static dev.coffer.fuse.SyncedVersions.content;
import static dev.coffer.fuse.SyncedVersions.prepare;
import static dev.coffer.fuse.SyncedVersions.readInPieces;
import static dev.coffer.fuse.SyncedVersions.sync;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's size after changes made through the mount, around a sync (session 38's third review):
 * a write keeps the largest size the kernel may hold, so a file a sync client shortened still reads
 * without zeros after a write; a truncate or an O_TRUNC open leaves only the size the kernel sets, so
 * with no sync client at all an open is not answered with direct I/O (whose shared mmap fails).
 * Renames (session 39): a renamed folder's files keep their notes under the new names, and a
 * handle's writes and truncates change the notes of the name it has now.
 */
class KernelSizesAfterChangesMountTest {
    private static final byte[] SHORTER = content(70_000, 11);
    @TempDir
    Path tmp;
    private VaultMount vm;

    @BeforeEach
    void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false), FuseAdapter::new);
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        vm.close();
    }

    /** A program writes the file here (no stat after), then the sync client puts a shorter version in place. */
    @Test
    void aFileWrittenHereThenShortenedBySyncReadsWithoutZeros() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("w" + round), SHORTER, content(10, round));
            Files.write(p.file(), content(1_000_000, round)); // O_TRUNC and writes, no stat after
            Mounts.awaitReleased(vm.mount.adapter()); // else the sync orphans the open file: a conflict copy
            sync(p);
            byte[] got = readInPieces(p.file());
            if (!Arrays.equals(got, SHORTER)) {
                wrong.add("round " + round + ": " + got.length + " bytes");
            }
            Files.delete(p.otherCipher());
        }
        assertThat(wrong).isEmpty();
    }

    /** A holder writes a byte into its own, replaced file after the shrinking sync; a fresh open reads the new version. */
    @Test
    void aWriteThroughAnOlderHandleAfterAShrinkingSyncDoesNotHideIt() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("h" + round), SHORTER, content(1_000_000, round));
            try (FileChannel holder = FileChannel.open(p.file(), StandardOpenOption.WRITE)) {
                sync(p);
                holder.write(ByteBuffer.wrap(new byte[] {1}), 0);
                byte[] got = readInPieces(p.file());
                if (!Arrays.equals(got, SHORTER)) {
                    wrong.add("round " + round + ": " + got.length + " bytes");
                }
            }
            // The holder wrote to its replaced file: its release keeps that as a conflict copy (session 37).
            Path copy = vm.mnt.resolve("h" + round + " (Conflict 1)");
            for (long end = System.nanoTime() + 5_000_000_000L; !Files.exists(copy) && System.nanoTime() < end; ) {
                Thread.sleep(20);
            }
            Files.delete(copy);
            Files.delete(p.otherCipher());
        }
        assertThat(wrong).isEmpty();
    }

    /** An append ({@code >>}) to a file a sync shortened, then a read without a stat. */
    @Test
    void anAppendAfterAShrinkingSyncThenAReadHasNoZeros() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 15; round++) {
            SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("a" + round), SHORTER, content(1_000_000, round));
            sync(p);
            Files.write(p.file(), "TAIL".getBytes(), StandardOpenOption.APPEND);
            byte[] got = readInPieces(p.file());
            if (got.length != SHORTER.length + 4 || got[SHORTER.length] != 'T') {
                wrong.add("round " + round + ": " + got.length + " bytes");
            }
            Files.delete(p.otherCipher());
        }
        assertThat(wrong).isEmpty();
    }

    /** No sync client: a file truncated by path, then mapped shared (Java's READ_ONLY map is MAP_SHARED). */
    @Test
    void aFileTruncatedByPathHereCanBeMapped() throws Exception {
        Path file = Files.write(vm.mnt.resolve("t.bin"), content(100_000, 1));
        assertThat(Files.size(file)).isEqualTo(100_000);
        Shell.ok(tmp, "python3", "-c", "import os; os.truncate('" + file + "', 5000)");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            assertThat(m.get(0)).isEqualTo(content(1, 1)[0]);
        }
    }

    /** No sync client: {@code : > f} (O_TRUNC, nothing written), then a write and Python's (shared) mmap of it. */
    @Test
    void aFileEmptiedByAShellRedirectThenWrittenCanBeMapped() throws Exception {
        Path file = Files.write(vm.mnt.resolve("e.bin"), content(100_000, 1));
        assertThat(Files.size(file)).isEqualTo(100_000);
        Shell.sh(tmp, ": > '" + file + "'");
        String out = Shell.run(tmp, "python3", "-c",
                "import mmap\nf=open('" + file + "','r+b')\nf.write(b'x'*10)\nf.flush()\n"
                        + "m=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_READ)\nprint(len(m))").output();
        assertThat(out.trim()).isEqualTo("10");
    }

    /**
     * A file in a folder renamed through the mount, which a sync client then shortened, read without a
     * stat first: no zeros after its end. Before, its notes stayed under the old name and its open was
     * only "stale": 4-6 of 30 rounds read 114,688 bytes instead of 70,000.
     */
    @Test
    void aFileInARenamedFolderThatASyncShortenedReadsWithoutZeros() throws Exception {
        byte[] shorter = content(70_000, 7);
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 30; round++) {
            Path dir = Files.createDirectory(vm.mnt.resolve("dir" + round));
            SyncedVersions.Prepared p = prepare(vm, tmp, dir.resolve("f"), shorter, content(1_000_000, round));
            Path renamed = vm.mnt.resolve("renamed" + round);
            Files.move(dir, renamed);
            sync(p);
            Path out = tmp.resolve("out");
            byte[] got = round % 2 == 0 ? readInPieces(renamed.resolve("f"))
                    : Files.readAllBytes(Path.of(Shell.sh(tmp, "dd status=none bs=4096 if='" + renamed.resolve("f")
                            + "' of='" + out + "' && echo '" + out + "'").trim()));
            if (!Arrays.equals(got, shorter)) {
                wrong.add("round " + round + ": " + got.length + " bytes");
            }
            Files.delete(p.otherCipher());
        }
        assertThat(wrong).isEmpty();
    }

    /**
     * No sync client: a handle writes, its file is renamed, and the handle shortens it. The truncate
     * changes the new name's notes, so the next open is a plain one (a shared mmap works). Before, the
     * new name kept the written size and every such reopen went direct (session 39's review).
     */
    @Test
    void aFileShortenedThroughAHandleAfterItsRenameCanBeMapped() throws Exception {
        for (int round = 0; round < 5; round++) {
            String out = Shell.ok(tmp, "python3", "-c", "import os,mmap,sys\nd=sys.argv[1]\n"
                    + "fd=os.open(d+'/mv.tmp',os.O_RDWR|os.O_CREAT,0o644)\nos.write(fd,b'x'*200000)\n"
                    + "os.rename(d+'/mv.tmp',d+'/mv.bin')\nos.ftruncate(fd,1000)\nos.close(fd)\n"
                    + "f=open(d+'/mv.bin','rb')\nm=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_READ)\nprint(len(m))",
                    vm.mnt.toString());
            assertThat(out.trim()).as("round %d", round).isEqualTo("1000");
        }
    }

    /** A read-write open of a file a sync client shortened reads it whole, no zeros, no cut. */
    @Test
    void aReadWriteOpenOfAShrunkFileReadsWhole() throws Exception {
        byte[] shorter = content(70_000, 8);
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("rw.bin"), shorter, content(1_000_000, 9));
        sync(p);
        try (FileChannel ch = FileChannel.open(p.file(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer all = ByteBuffer.allocate(1_100_000);
            while (ch.read(all) > 0) {
                // to the end
            }
            assertThat(Arrays.copyOf(all.array(), all.position())).isEqualTo(shorter);
        }
    }
}
