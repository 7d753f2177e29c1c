package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Once names were missed in a folder, its lookups ask the cheap absence probe first (PathMapper,
 * RecentMisses): whatever is stored there, by Coffer or behind its back, is still found at once,
 * and a missing name is still missing.
 */
class LookupsAfterMissesTest {
    private static final String NFC = "\u00c5ngstr\u00f6m.txt";

    @TempDir
    Path tmp;

    @Test
    void filesCreatedAmongMissesAreFoundAtOnce() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path folder = Files.createDirectory(fs.getPath("/folder"));
            for (int i = 0; i < 200; i++) {
                Path p = folder.resolve("f" + i);
                assertThat(Files.exists(p)).isFalse();
                Files.writeString(p, "content " + i);
                assertThat(Files.exists(p)).isTrue();
                assertThat(Files.isRegularFile(p)).isTrue();
                assertThat(Files.exists(folder.resolve("f" + i + ".tmp"))).isFalse();
            }
            for (int i = 0; i < 200; i++) {
                assertThat(Files.readString(folder.resolve("f" + i))).isEqualTo("content " + i);
            }
            Files.createDirectory(folder.resolve("sub"));
            assertThat(Files.isDirectory(folder.resolve("sub"))).isTrue();
        }
    }

    @Test
    void filesCreatedAcrossFoldersInAnyOrderAreFoundAtOnce() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path[] folders = new Path[7];
            for (int f = 0; f < folders.length; f++) {
                folders[f] = Files.createDirectory(fs.getPath("/folder-" + f));
                assertThat(Files.isDirectory(folders[f])).isTrue();
            }
            for (int i = 0; i < 140; i++) { // an archive's order: each file in another folder
                Path p = folders[(i * 3) % folders.length].resolve("f" + i);
                assertThat(Files.exists(p)).isFalse();
                Files.writeString(p, "content " + i);
                assertThat(Files.isRegularFile(p)).isTrue();
                Path link = p.resolveSibling("l" + i);
                assertThat(Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
                Files.createSymbolicLink(link, fs.getPath("f" + i));
                assertThat(Files.isSymbolicLink(link)).isTrue();
                // a reader of what exists in between: found at once, however many probes it takes
                for (int j = Math.max(0, i - 3); j <= i; j++) {
                    assertThat(Files.readString(folders[(j * 3) % folders.length].resolve("f" + j))).isEqualTo("content " + j);
                }
                assertThat(Files.exists(folders[(i + 1) % folders.length].resolve("never-" + i))).isFalse();
            }
            for (int i = 0; i < 140; i++) {
                assertThat(Files.readString(folders[(i * 3) % folders.length].resolve("f" + i))).isEqualTo("content " + i);
            }
        }
    }

    @Test
    void aFileStoredBehindTheVaultsBackAfterAMissIsFound() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.writeString(fs.getPath("/synced-later"), "from the other machine");
            Path ciphertext = TestVaults.onlyCiphertextFile(vault);
            Path away = Files.move(ciphertext, vault.resolve("away"));
            assertThat(Files.exists(fs.getPath("/synced-later"))).isFalse();
            assertThat(Files.exists(fs.getPath("/something-else"))).isFalse();

            Files.move(away, ciphertext); // what a sync client does

            assertThat(Files.readString(fs.getPath("/synced-later"))).isEqualTo("from the other machine");
        }
    }

    @Test
    void aNameStoredInNfdIsFoundAmongMisses() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            TestVaults.storeInNfd(fs, vault, NFC, "old content");
            assertThat(Files.exists(fs.getPath("/missing-1"))).isFalse();
            assertThat(Files.exists(fs.getPath("/missing-2"))).isFalse();

            assertThat(Files.readString(fs.getPath("/" + NFC))).isEqualTo("old content");
        }
    }
}
