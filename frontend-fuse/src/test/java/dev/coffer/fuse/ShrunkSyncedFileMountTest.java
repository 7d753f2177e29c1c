package dev.coffer.fuse;

import static dev.coffer.fuse.SyncedVersions.content;
import static dev.coffer.fuse.SyncedVersions.prepare;
import static dev.coffer.fuse.SyncedVersions.readInPieces;
import static dev.coffer.fuse.SyncedVersions.sync;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * A sync client shortened a file behind the mount while the kernel still holds its larger size: the
 * first open is answered ESTALE, the kernel looks the name up again (the file's size, its pages past
 * it dropped) and retries, and the retry keeps the page cache. Before session 39 such opens went
 * direct for the kernel's cache time, where a shared mmap fails with ENODEV.
 */
class ShrunkSyncedFileMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;
    /** OPEN requests the adapter was given (a retry after ESTALE is a second one), and their errors. */
    private final AtomicInteger opens = new AtomicInteger();
    private final AtomicInteger failedOpens = new AtomicInteger();

    private void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false), (root, uid, gid) -> new FuseAdapter(root, uid, gid) {
            @Override
            public int open(String path, FuseFileInfo fi) {
                int r = super.open(path, fi);
                opens.incrementAndGet();
                if (r != 0) {
                    failedOpens.incrementAndGet();
                }
                return r;
            }
        });
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (vm != null) {
            vm.close();
        }
    }

    @Test
    void aFileASyncShortenedCanBeMappedSharedAtOnce() throws Exception {
        mount();
        byte[] shorter = content(70_000, 1);
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("db.bin"), shorter, content(1_000_000, 2));
        sync(p);
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(shorter));
        String out = Shell.ok(tmp, "python3", "-c", "import mmap,hashlib,sys\nf=open(sys.argv[1],'rb')\n"
                + "m=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_READ)\nprint(len(m), hashlib.md5(m[:]).hexdigest())",
                p.file().toString());
        assertThat(out.trim()).isEqualTo("70000 " + md5);
    }

    /** Java's READ_ONLY map is shared too; and a second program's open finds the kernel's size current. */
    @Test
    void oneOpenIsAskedAgainAndTheNextProgramsOpenIsNot() throws Exception {
        mount();
        byte[] shorter = content(70_000, 3);
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("f.bin"), shorter, content(1_000_000, 4));
        sync(p);
        int before = opens.get();
        try (FileChannel ch = FileChannel.open(p.file(), StandardOpenOption.READ)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            byte[] mapped = new byte[m.remaining()];
            m.get(mapped);
            assertThat(mapped).isEqualTo(shorter);
        }
        assertThat(opens.get() - before).as("an OPEN answered ESTALE and its retry").isEqualTo(2);
        assertThat(failedOpens.get()).isEqualTo(1);
        assertThat(Shell.sh(tmp, "wc -c < '" + p.file() + "'").trim()).isEqualTo("70000");
        assertThat(opens.get() - before).as("the next program's open: one").isEqualTo(3);
        assertThat(failedOpens.get()).isEqualTo(1);
    }

    /**
     * A writable open is asked again too, decided from a stat before any channel is opened (a writable
     * channel closed unused would take a lost earlier write's report from its program:
     * DeferredEnospcMountTest); a shared writable mmap of it then works, and writes land.
     */
    @Test
    void aReadWriteOpenOfAShrunkFileIsAskedAgainAndCanBeMappedShared() throws Exception {
        mount();
        byte[] shorter = content(70_000, 8);
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("rw.bin"), shorter, content(1_000_000, 9));
        sync(p);
        int before = opens.get();
        String out = Shell.ok(tmp, "python3", "-c", "import mmap,sys\nf=open(sys.argv[1],'r+b')\n"
                + "m=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_WRITE)\nm[0:5]=b'HELLO'\nm.flush()\nprint(len(m))",
                p.file().toString());
        assertThat(out.trim()).isEqualTo("70000");
        assertThat(opens.get() - before).as("an OPEN answered ESTALE and its retry").isEqualTo(2);
        assertThat(failedOpens.get()).isEqualTo(1);
        byte[] expected = shorter.clone();
        System.arraycopy("HELLO".getBytes(), 0, expected, 0, 5);
        assertThat(Files.readAllBytes(p.file())).isEqualTo(expected);
    }

    /**
     * An open that is not a path walk (a magic link in /proc to a path-only descriptor) gets no new
     * lookup before its retry: the retry is let through direct, never answered ESTALE again.
     */
    @Test
    void aRetryWithoutALookupIsReadDirectAndNotRefusedAgain() throws Exception {
        mount();
        byte[] shorter = content(70_000, 5);
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("g.bin"), shorter, content(1_000_000, 6));
        sync(p);
        String out = Shell.ok(tmp, "python3", "-c", "import os,hashlib,sys\nfd=os.open(sys.argv[1],os.O_PATH)\n"
                + "f=open('/proc/self/fd/%d' % fd,'rb')\nsize=os.fstat(f.fileno()).st_size\nd=f.read()\n"
                + "print(size, len(d), hashlib.md5(d).hexdigest())",
                p.file().toString());
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(shorter));
        assertThat(out.trim()).as("the size fstat gives, the bytes read, their MD5").isEqualTo("70000 70000 " + md5);
    }

    /**
     * The kernel keeps a renamed folder's files with their sizes under the new names, and so do the
     * notes: a file there that a sync shortened reads without zeros after its end, without a stat
     * first (a limit of session 38's form, which only dropped such a file's attributes).
     */
    @Test
    void aFileInARenamedFolderThatASyncShortenedReadsWithoutZeros() throws Exception {
        mount();
        byte[] shorter = content(70_000, 7);
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 30; round++) {
            Path dir = Files.createDirectory(vm.mnt.resolve("dir" + round));
            SyncedVersions.Prepared p = prepare(vm, tmp, dir.resolve("f"), shorter, content(1_000_000, round));
            Path renamed = vm.mnt.resolve("renamed" + round);
            Files.move(dir, renamed);
            sync(p);
            byte[] got = round % 2 == 0 ? readInPieces(renamed.resolve("f"))
                    : Files.readAllBytes(Path.of(Shell.sh(tmp, "dd status=none bs=4096 if='" + renamed.resolve("f")
                            + "' of='" + tmp.resolve("out") + "' && echo '" + tmp.resolve("out") + "'").trim()));
            if (!java.util.Arrays.equals(got, shorter)) {
                wrong.add("round " + round + ": " + got.length + " bytes");
            }
            Files.delete(p.otherCipher());
        }
        assertThat(wrong).isEmpty();
    }
}
