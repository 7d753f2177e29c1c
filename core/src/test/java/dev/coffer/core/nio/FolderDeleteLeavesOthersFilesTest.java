package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting a folder never deletes what a sync client put beside its ciphertext (spec 4, item 20): a
 * foreign file in its storage folder makes the delete refuse ("directory not empty") with everything
 * kept; a conflict copy of its {@code dir.c9r} in its entry folder stays where it was, and the folder
 * is still gone from the listing under its own name.
 */
class FolderDeleteLeavesOthersFilesTest {
    private static final String PASS = "pass phrase";

    @TempDir
    Path tmp;

    @Test
    void aForeignFileInTheStorageFolderRefusesTheDeleteAndAllIsKept() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Set<Path> before = TestVaults.storageFolders(vault);
            Files.createDirectory(fs.getPath("/folder"));
            Set<Path> made = TestVaults.storageFolders(vault);
            made.removeAll(before);
            Path storage = made.iterator().next();
            Path foreign = Files.writeString(storage.resolve("synced-by-another-tool.tmp"), "theirs");
            Set<Path> files = allFiles(vault);

            assertThatThrownBy(() -> Files.delete(fs.getPath("/folder"))).isInstanceOf(DirectoryNotEmptyException.class);
            assertThat(allFiles(vault)).isEqualTo(files);
            assertThat(Files.readString(foreign)).isEqualTo("theirs");
            assertThat(Files.isDirectory(fs.getPath("/folder"))).isTrue();

            Files.delete(foreign);
            Files.delete(fs.getPath("/folder"));
            assertThat(Files.exists(fs.getPath("/folder"))).isFalse();
            assertThat(storage).doesNotExist();
        }
    }

    @Test
    void aConflictCopyOfThePointerStaysInTheEntryFolder() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.createDirectory(fs.getPath("/folder"));
            Path entry;
            try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
                entry = s.filter(p -> p.getFileName().toString().equals("dir.c9r")).findFirst().orElseThrow().getParent();
            }
            Path copy = Files.copy(entry.resolve("dir.c9r"), entry.resolve("dir (1).c9r"));

            Files.delete(fs.getPath("/folder"));
            assertThat(copy).exists(); // left for the next listing to name (spec 6), never deleted
            assertThat(entry.resolve("dir.c9r")).doesNotExist();
        }
    }

    private static Set<Path> allFiles(Path vault) throws IOException {
        try (Stream<Path> s = Files.walk(vault)) {
            List<Path> all = s.collect(Collectors.toList());
            return new HashSet<>(all);
        }
    }
}
