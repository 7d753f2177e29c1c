package dev.coffer.fuse;

import static dev.coffer.fuse.SyncedVersions.content;
import static dev.coffer.fuse.SyncedVersions.prepare;
import static dev.coffer.fuse.SyncedVersions.readInPieces;
import static dev.coffer.fuse.SyncedVersions.sync;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 * The sizes the kernel holds follow renames through the mount (session 39): a renamed folder's files
 * keep their notes under the new names, and a handle's writes and truncates change the notes of the
 * name it has now.
 */
class KernelSizesAfterRenamesMountTest {
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
