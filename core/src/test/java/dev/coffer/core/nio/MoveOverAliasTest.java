package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file moved over a file whose name another implementation stored in NFD (Coffer finds it through
 * the NFC spelling, spec 4): the old entry goes, as with any replaced file, instead of staying beside
 * the new one under the same name.
 */
class MoveOverAliasTest {
    private static final String NFC = "Ångström.txt";

    @TempDir
    Path tmp;

    @Test
    void aFileMovedOverAnNfdStoredFileReplacesIt() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            String nfdName = TestVaults.storeInNfd(fs, vault, NFC, "old content");
            assertThat(names(fs)).containsExactly(NFC); // a listing learns the stored spelling
            assertThat(Files.readString(fs.getPath("/" + NFC))).isEqualTo("old content");

            moveNewFileOverIt(fs);

            assertReplaced(fs, vault, nfdName);
        }
    }

    @Test
    void anNfdStoredFileIsFoundBeforeItsFolderWasListed() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            String nfdName = TestVaults.storeInNfd(fs, vault, NFC, "old content");

            assertThat(Files.readString(fs.getPath("/" + NFC))).isEqualTo("old content"); // no listing first
            assertThatThrownBy(() -> Files.writeString(fs.getPath("/" + NFC), "x", StandardOpenOption.CREATE_NEW))
                    .isInstanceOf(FileAlreadyExistsException.class);
            moveNewFileOverIt(fs);

            assertReplaced(fs, vault, nfdName);
        }
    }

    private static void moveNewFileOverIt(CofferFileSystem fs) throws IOException {
        Files.writeString(fs.getPath("/new.txt"), "new content");
        Files.move(fs.getPath("/new.txt"), fs.getPath("/" + NFC), StandardCopyOption.REPLACE_EXISTING);
    }

    private static void assertReplaced(CofferFileSystem fs, Path vault, String nfdName) throws IOException {
        assertThat(Files.readString(fs.getPath("/" + NFC))).isEqualTo("new content");
        assertThat(names(fs)).containsExactly(NFC);
        assertThat(TestVaults.onlyCiphertextFile(vault).getFileName().toString()).isNotEqualTo(nfdName);
    }

    private static List<String> names(CofferFileSystem fs) throws IOException {
        try (Stream<Path> s = Files.list(fs.getPath("/"))) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }
}
