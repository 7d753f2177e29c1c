package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync client removed a folder's storage folder (the folder was deleted on another device) while
 * its pointer is still here: a folder made in it fails, and leaves no orphan storage folder behind.
 */
class MkdirInVanishedFolderTest {
    @TempDir
    Path tmp;
    private Path vault;
    private CofferFileSystem fs;

    @BeforeEach
    void vault() throws IOException {
        vault = tmp.resolve("v");
        fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void aFolderMadeInAFolderWhoseStorageVanishedLeavesNoOrphan() throws IOException {
        List<Path> rootOnly = storageFolders();
        Files.createDirectory(fs.getPath("/p"));
        List<Path> withP = storageFolders();
        withP.removeAll(rootOnly);
        assertThat(withP).hasSize(1);
        Path storageOfP = withP.get(0);
        deleteTree(storageOfP);
        List<Path> before = everythingUnder(vault.resolve("d"));

        assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/p/q"))).isInstanceOf(NoSuchFileException.class);

        assertThat(everythingUnder(vault.resolve("d"))).as("no storage folder, dirid.c9r or two-letter folder left behind")
                .containsExactlyElementsOf(before);
    }

    /**
     * The same for a folder made without owner write permission ({@code mkdir -m 555}): its storage
     * folder has the folder's permissions once {@code dirid.c9r} is in it, so a user other than root
     * cannot delete that file. Root can, so the store here refuses a delete in a folder its owner
     * may not write, as it would for such a user.
     */
    @Test
    void aReadOnlyFolderMadeInAFolderWhoseStorageVanishedLeavesNoOrphan() throws IOException {
        RecordingFileSystem store = new RecordingFileSystem();
        store.deleteFails = p -> !ownerMayWrite(p.getParent());
        Path raw = tmp.resolve("w");
        try (CofferFileSystem ro = CofferFileSystems.create(store.wrap(raw), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            List<Path> rootOnly = storageFolders(raw);
            Files.createDirectory(ro.getPath("/p"));
            List<Path> withP = storageFolders(raw);
            withP.removeAll(rootOnly);
            assertThat(withP).hasSize(1);
            deleteTree(withP.get(0));
            List<Path> before = everythingUnder(raw.resolve("d"));

            assertThatThrownBy(() -> Files.createDirectory(ro.getPath("/p/q"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x"))))
                    .isInstanceOf(NoSuchFileException.class);

            assertThat(everythingUnder(raw.resolve("d"))).as("no storage folder, dirid.c9r or two-letter folder left behind")
                    .containsExactlyElementsOf(before);
        }
    }

    private static boolean ownerMayWrite(Path folder) {
        try {
            return Files.getPosixFilePermissions(folder, LinkOption.NOFOLLOW_LINKS).contains(PosixFilePermission.OWNER_WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Path> storageFolders() throws IOException {
        return storageFolders(vault);
    }

    private static List<Path> storageFolders(Path vault) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            return s.filter(p -> p.getFileName().toString().equals("dirid.c9r")).map(Path::getParent)
                    .collect(Collectors.toList());
        }
    }

    private static List<Path> everythingUnder(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.sorted().collect(Collectors.toList());
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        }
    }
}
