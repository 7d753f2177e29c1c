package dev.coffer.fuse;

import static dev.coffer.fuse.SyncedVersions.ciphertexts;
import static dev.coffer.fuse.SyncedVersions.content;
import static dev.coffer.fuse.SyncedVersions.prepare;
import static dev.coffer.fuse.SyncedVersions.readInPieces;
import static dev.coffer.fuse.SyncedVersions.sync;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync client replaces a file's ciphertext with another device's version of another size while the
 * kernel still holds the old size (the mount's default cache time, 10 s), and a program then opens
 * the file: it reads that version whole, not cut to the old size, and not followed by zeros up to it.
 * Several cases come from session 38's review of the first form of the fix.
 */
class SyncedSizeMountTest {
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

    @Test
    void aFileOpenedAfterASyncGrewItReadsToItsNewEnd() throws Exception {
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("report.txt"), content(100_000, 1), "short".getBytes());
        sync(p);
        byte[] read = Files.readAllBytes(p.file());
        assertThat(read.length).as("bytes read").isEqualTo(p.other().length);
        assertThat(read).isEqualTo(p.other());
        assertThat(Files.size(p.file())).isEqualTo(p.other().length);
    }

    /** Small reads without a stat first (as cat and cp do, and dd). */
    @Test
    void smallReadsOfAFileASyncGrewGoToItsNewEnd() throws Exception {
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("notes.txt"), content(50_000, 2), content(6_000, 3));
        sync(p);
        assertThat(readInPieces(p.file())).isEqualTo(p.other());
    }

    /**
     * The kernel's size came from this mount's own writes after its last stat (no stat since): the
     * kernel asks again itself after its own writes.
     */
    @Test
    void aFileRewrittenHereWithoutAStatAndThenSyncedReadsToItsNewEnd() throws Exception {
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("notes.txt"), content(50_000, 4), content(50_000, 5));
        Files.write(p.file(), content(6_000, 6)); // O_TRUNC and writes: the kernel's size is 6,000, no stat since
        sync(p);
        assertThat(readInPieces(p.file())).isEqualTo(p.other());
    }

    /** A save by rename (editors): the name's size is the renamed file's, and a sync after it is seen. */
    @Test
    void aFileSavedByRenameAndThenSyncedReadsToItsNewEnd() throws Exception {
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("notes.txt"), content(50_000, 7), content(50_000, 8));
        Path temp = Files.write(vm.mnt.resolve("notes.txt~"), content(6_000, 9));
        assertThat(Files.size(temp)).isEqualTo(6_000);
        Set<Path> before = ciphertexts(vm);
        Files.move(temp, p.file(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(Files.size(p.file())).isEqualTo(6_000);
        Set<Path> now = ciphertexts(vm);
        assertThat(now).hasSize(before.size() - 1);
        sync(new SyncedVersions.Prepared(p.file(), now.stream().filter(c -> c.getFileName().equals(p.cipher().getFileName())).findFirst().orElseThrow(),
                p.otherCipher(), p.other()));
        assertThat(readInPieces(p.file())).isEqualTo(p.other());
    }

    /** The kernel keeps a renamed folder's files with their sizes under the new names. */
    @Test
    void aFileInAFolderRenamedThroughTheMountAndThenSyncedReadsToItsNewEnd() throws Exception {
        Files.createDirectory(vm.mnt.resolve("dir"));
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("dir/report.txt"), content(100_000, 10), "short".getBytes());
        Files.move(vm.mnt.resolve("dir"), vm.mnt.resolve("dir2"));
        sync(p);
        assertThat(readInPieces(vm.mnt.resolve("dir2/report.txt"))).isEqualTo(p.other());
    }

    /** A file the sync client shortened, read without a stat first: no zeros after its new end. */
    @Test
    void aFileASyncShortenedReadsWithoutZerosAfterItsEnd() throws Exception {
        byte[] shorter = content(70_000, 11);
        List<String> wrong = new ArrayList<>();
        String[] readers = {"pieces", "dd", "head"};
        for (int round = 0; round < 45; round++) {
            String reader = readers[round % readers.length];
            SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("f" + round), shorter, content(1_000_000, round));
            sync(p);
            byte[] got = switch (reader) {
                case "dd" -> viaShell("dd status=none bs=4096 if='" + p.file() + "'");
                case "head" -> viaShell("head -c 900000 '" + p.file() + "'");
                default -> readInPieces(p.file());
            };
            if (!java.util.Arrays.equals(got, shorter)) {
                wrong.add("round " + round + " (" + reader + "): " + got.length + " bytes");
            }
            Files.delete(p.otherCipher());
        }
        assertThat(wrong).isEmpty();
    }

    /** Ordinary tools on a synced file; names plain, NFD and long (stored shortened, .c9s). */
    @Test
    void toolsReadASyncedFileWhole() throws Exception {
        String[] names = {"plain.txt", "cafe\u0301.txt", "L".repeat(230) + ".txt"};
        String[] tools = {"cat %s | wc -c", "cp %s '" + tmp + "/copy' && wc -c < '" + tmp + "/copy'",
            "python3 -c \"import sys; print(len(open(sys.argv[1],'rb').read()))\" %s", "tail -c +1 %s | wc -c",
            "md5sum %s | cut -c1-32"};
        List<String> wrong = new ArrayList<>();
        for (String name : names) {
            byte[] longer = content(70_000, name.length());
            String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(longer));
            for (String tool : tools) {
                SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve(name), longer, "short".getBytes());
                sync(p);
                String out = Shell.sh(tmp, tool.replace("%s", "'" + p.file() + "'")).trim();
                String expected = tool.startsWith("md5sum") ? md5 : "70000";
                if (!out.endsWith(expected)) {
                    wrong.add((name.length() > 20 ? "long name" : name) + " / " + tool + ": " + out);
                }
                Files.delete(p.otherCipher());
                Files.delete(p.file());
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** ls -l (READDIRPLUS) before and after the sync, then a read. */
    @Test
    void aFileListedBeforeAndAfterTheSyncReadsWhole() throws Exception {
        Files.createDirectory(vm.mnt.resolve("d"));
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("d/f.txt"), content(60_000, 12), "short".getBytes());
        Shell.sh(tmp, "ls -l '" + vm.mnt.resolve("d") + "' > /dev/null");
        sync(p);
        Shell.sh(tmp, "ls -l '" + vm.mnt.resolve("d") + "' > /dev/null");
        assertThat(readInPieces(p.file())).isEqualTo(p.other());
    }

    /** A read-write open (no truncation), and an append, after a sync grew the file. */
    @Test
    void aReadWriteOpenAndAnAppendAfterASyncSeeTheNewEnd() throws Exception {
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("rw.txt"), content(60_000, 13), "short".getBytes());
        sync(p);
        try (FileChannel ch = FileChannel.open(p.file(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer all = ByteBuffer.allocate(100_000);
            while (ch.read(all) > 0) {
                // to the end
            }
            assertThat(all.position()).isEqualTo(60_000);
        }
        Files.write(p.file(), "TAIL".getBytes(), StandardOpenOption.APPEND);
        byte[] all = Files.readAllBytes(p.file());
        assertThat(all.length).isEqualTo(60_004);
        assertThat(new String(all, 60_000, 4)).isEqualTo("TAIL");
    }

    private byte[] viaShell(String command) throws IOException, InterruptedException {
        Path out = tmp.resolve("out");
        Shell.sh(tmp, command + " > '" + out + "'");
        return Files.readAllBytes(out);
    }

}
