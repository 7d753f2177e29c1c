package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves on an instrumented ciphertext file system what the vault must not touch: creating a file
 * never lists its folder, listing a folder (names and attributes) never opens file contents, and
 * a stat of a file reads its ciphertext file's attributes once.
 */
class AccessPatternTest {
    @TempDir
    Path tmp;

    private final RecordingFileSystem rec = new RecordingFileSystem();

    /** A new vault whose ciphertext side {@link #rec} records. */
    private CofferFileSystem recordedVault() throws IOException {
        return CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "recorded passphrase".toCharArray(),
                VaultOnTempDirContractTest.FAST);
    }

    @Test
    void creatingFilesNeverListsAndListingNeverOpensContents() throws IOException {
        try (CofferFileSystem fs = recordedVault()) {
            Path root = fs.getPath("/");
            Files.createDirectory(root.resolve("folder"));
            Files.writeString(root.resolve("folder/seed.txt"), "seed");
            rec.reset();
            for (int i = 0; i < 20; i++) {
                Files.writeString(root.resolve("folder/file" + i + ".txt"), "content " + i);
            }
            Files.writeString(root.resolve("folder/" + "long".repeat(50) + ".txt"), "long name");
            Files.createDirectory(root.resolve("folder/sub"));
            assertThat(rec.listed).as("folders listed while creating entries").isEmpty();

            rec.reset();
            try (Stream<Path> s = Files.list(root.resolve("folder"))) {
                List<Path> children = s.toList();
                assertThat(children).hasSize(23);
                for (Path p : children) {
                    assertThat(Files.readAttributes(p, BasicFileAttributes.class).size()).isNotNegative();
                }
            }
            // The storage folder once, plus the entry folders of the folder and of the shortened name
            // (their payload decides their type); no file's content.
            assertThat(rec.listed).hasSize(3);
            String storage = rec.listed.get(0);
            assertThat(rec.listed.subList(1, 3)).allSatisfy(p -> {
                assertThat(p).startsWith(storage + "/");
                assertThat(p).matches(".*\\.c9[rs]$");
            });
            List<String> contentOpens = rec.opened.stream()
                    .filter(p -> !p.endsWith("/dir.c9r") && !p.endsWith("/name.c9s"))
                    .toList();
            assertThat(contentOpens).as("files opened while listing").isEmpty();
        }
    }

    /**
     * A folder's lookup probes its entry folder for payloads ({@code dir.c9r}, {@code symlink.c9r})
     * once; while the entry folder is unchanged (and was settled when probed), the answer is reused.
     * A payload added there changes its time, and the next lookup probes again.
     */
    @Test
    void aFolderLookupProbesItsPayloadsOnlyWhileItsEntryFolderChanges() throws IOException {
        try (CofferFileSystem fs = recordedVault()) {
            Path folder = Files.createDirectory(fs.getPath("/folder"));
            rec.reset();
            Files.readAttributes(folder, BasicFileAttributes.class);
            Path entryFolder = Path.of(rec.statted.get(0));
            assertThat(rec.statted.subList(1, 3)).containsExactly(entryFolder + "/dir.c9r", entryFolder + "/symlink.c9r");
            // Just made, so not yet trusted: probed again, and now settled.
            Files.setLastModifiedTime(entryFolder, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
            rec.reset();
            Files.readAttributes(folder, BasicFileAttributes.class);
            assertThat(rec.statted).contains(entryFolder + "/dir.c9r");
            // ... and statted again after the probes: kept only if they saw that same folder.
            assertThat(rec.statted).filteredOn(entryFolder.toString()::equals).hasSize(2);

            rec.reset();
            assertThat(Files.readAttributes(folder, BasicFileAttributes.class).isDirectory()).isTrue();
            assertThat(rec.statted).hasSize(2).noneMatch(p -> p.endsWith("/dir.c9r") || p.endsWith("/symlink.c9r"));

            // A second payload (half-synced, say) makes the entry incomplete: probed, and absent.
            Files.writeString(entryFolder.resolve("symlink.c9r"), "from elsewhere");
            rec.reset();
            assertThat(Files.exists(folder)).isFalse();
            assertThat(rec.statted).contains(entryFolder + "/dir.c9r", entryFolder + "/symlink.c9r");
        }
    }

    @Test
    void aStatOfAFileReadsItsCiphertextAttributesOnce() throws IOException {
        try (CofferFileSystem fs = recordedVault()) {
            Path file = fs.getPath("/folder/file.txt");
            Files.createDirectory(file.getParent());
            Files.writeString(file, "twelve bytes");
            rec.reset();
            assertThat(Files.readAttributes(file, BasicFileAttributes.class).size()).isEqualTo(12);
            // The folder's storage comes from the mapper's cache; the lookup's stat is the only one.
            assertThat(rec.statted).hasSize(1);
            assertThat(rec.statted.get(0)).endsWith(".c9r");
        }
    }
}
