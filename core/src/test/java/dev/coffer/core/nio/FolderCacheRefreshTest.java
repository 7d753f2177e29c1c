package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folder cache is filled by listings and stats as well as by lookups; a listing reads the
 * folder's {@code dir.c9r} afresh each time, so when a sync client repoints a folder underneath,
 * the next listing replaces the cached folder and lookups below it follow the new pointer.
 */
class FolderCacheRefreshTest {
    @TempDir
    Path tmp;

    @Test
    void aListingAfterAFolderWasRepointedUnderneathRefreshesTheLookupsBelowIt() throws IOException {
        Path vault = tmp.resolve("vault");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "refresh".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path a = Files.createDirectory(fs.getPath("/a"));
            Path b = Files.createDirectory(fs.getPath("/b"));
            Files.writeString(a.resolve("one.txt"), "1");
            Files.writeString(a.resolve("two.txt"), "2");
            Files.writeString(b.resolve("three.txt"), "3");
            assertThat(names(a)).containsExactly("one.txt", "two.txt");
            assertThat(Files.readString(a.resolve("one.txt"))).isEqualTo("1"); // /a is cached now

            // Underneath, /a's pointer is made to point to /b's storage folder (as a sync client could).
            Path aPointer = pointerOfFolderWith(fs, vault, 2);
            Path bPointer = pointerOfFolderWith(fs, vault, 1);
            Files.write(aPointer, Files.readAllBytes(bPointer));

            assertThat(names(a)).containsExactly("three.txt");
            assertThat(Files.readString(a.resolve("three.txt"))).as("a lookup below the relisted folder").isEqualTo("3");
            assertThat(Files.exists(a.resolve("one.txt"))).isFalse();
        }
    }

    @Test
    void aFolderRepointedUnderneathIsFollowedWithinASecondWithoutAListing() throws Exception {
        Path vault = tmp.resolve("vault");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "refresh".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path a = Files.createDirectory(fs.getPath("/a"));
            Path backup = Files.createDirectory(fs.getPath("/a-backup"));
            Files.writeString(a.resolve("notes.txt"), "precious notes");
            Files.writeString(backup.resolve("other.txt"), "x");
            Files.writeString(backup.resolve("more.txt"), "y");
            assertThat(Files.readString(a.resolve("notes.txt"))).isEqualTo("precious notes"); // /a is cached now

            // Another device renamed /a to /a-backup and made a new, empty /a; the sync client swaps the pointers.
            Path aPointer = pointerOfFolderWith(fs, vault, 1);
            Path backupPointer = pointerOfFolderWith(fs, vault, 2);
            byte[] oldA = Files.readAllBytes(aPointer);
            Files.write(aPointer, Files.readAllBytes(backupPointer));
            Files.write(backupPointer, oldA);
            Thread.sleep(FOLDER_TRUST_MILLIS + 100);

            assertThat(Files.exists(a.resolve("notes.txt"))).as("no listing in between").isFalse();
            Files.writeString(a.resolve("notes.txt"), "scratch");
            assertThat(Files.readString(backup.resolve("notes.txt"))).as("the moved folder's file").isEqualTo("precious notes");
            assertThat(names(a)).containsExactly("more.txt", "notes.txt", "other.txt");
        }
    }

    @Test
    void aFolderRemovedUnderneathAndMadeAgainGetsItsNewFilesAtOnce() throws IOException {
        Path vault = tmp.resolve("vault");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "refresh".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path a = Files.createDirectory(fs.getPath("/a"));
            Files.writeString(a.resolve("old.txt"), "old");
            assertThat(Files.readString(a.resolve("old.txt"))).isEqualTo("old"); // /a is cached now

            // The sync client removes /a's entry (another device deleted the folder, pointer first).
            Path entry = pointerOfFolderWith(fs, vault, 1).getParent();
            try (Stream<Path> s = Files.walk(entry)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            assertThat(Files.exists(a)).isFalse();

            Files.createDirectory(a);
            Files.writeString(a.resolve("report.txt"), "an hour of work");

            assertThat(names(a)).containsExactly("report.txt");
            assertThat(Files.readString(a.resolve("report.txt"))).isEqualTo("an hour of work");
        }
    }

    /** How long a cached folder goes unchecked (FolderCache.TRUST_NANOS). */
    private static final long FOLDER_TRUST_MILLIS = 1_000;

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The dir.c9r whose storage folder holds {@code files} files besides dirid.c9r. */
    private static Path pointerOfFolderWith(CofferFileSystem fs, Path vault, int files) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            for (Path pointer : s.filter(p -> p.getFileName().toString().equals("dir.c9r")).toList()) {
                Path storage = fs.mapper.storageOf(Files.readString(pointer));
                try (Stream<Path> children = Files.list(storage)) {
                    if (children.filter(p -> !p.getFileName().toString().equals("dirid.c9r")).count() == files) {
                        return pointer;
                    }
                }
            }
        }
        throw new AssertionError("no folder with " + files + " files");
    }
}
