package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.text.Normalizer;
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
    @TempDir
    Path tmp;

    @Test
    void aFileMovedOverAnNfdStoredFileReplacesIt() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            String nfc = "Ångström.txt";
            Files.writeString(fs.getPath("/stored-in-nfd"), "old content");
            Path ciphertext = TestVaults.onlyCiphertextFile(vault);
            String nfdName = fs.mapper.names().encrypt(Normalizer.normalize(nfc, Normalizer.Form.NFD), "") + ".c9r";
            Files.move(ciphertext, ciphertext.resolveSibling(nfdName)); // as another implementation would store it
            fs.mapper.invalidate(List.of());
            try (Stream<Path> s = Files.list(fs.getPath("/"))) { // a listing learns the stored spelling
                assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toList())).containsExactly(nfc);
            }
            assertThat(Files.readString(fs.getPath("/" + nfc))).isEqualTo("old content");

            Files.writeString(fs.getPath("/new.txt"), "new content");
            Files.move(fs.getPath("/new.txt"), fs.getPath("/" + nfc), StandardCopyOption.REPLACE_EXISTING);

            assertThat(Files.readString(fs.getPath("/" + nfc))).isEqualTo("new content");
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toList())).containsExactly(nfc);
            }
            assertThat(TestVaults.onlyCiphertextFile(vault).getFileName().toString()).isNotEqualTo(nfdName);
        }
    }

    @Test
    void anNfdStoredFileIsFoundBeforeItsFolderWasListed() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            String nfc = "Ångström.txt";
            Files.writeString(fs.getPath("/stored-in-nfd"), "old content");
            Path ciphertext = TestVaults.onlyCiphertextFile(vault);
            String nfdName = fs.mapper.names().encrypt(Normalizer.normalize(nfc, Normalizer.Form.NFD), "") + ".c9r";
            Files.move(ciphertext, ciphertext.resolveSibling(nfdName)); // as another implementation would store it
            fs.mapper.invalidate(List.of());

            assertThat(Files.readString(fs.getPath("/" + nfc))).isEqualTo("old content"); // no listing first
            assertThatThrownBy(() -> Files.writeString(fs.getPath("/" + nfc), "x", StandardOpenOption.CREATE_NEW))
                    .isInstanceOf(FileAlreadyExistsException.class);
            Files.writeString(fs.getPath("/new.txt"), "new content");
            Files.move(fs.getPath("/new.txt"), fs.getPath("/" + nfc), StandardCopyOption.REPLACE_EXISTING);

            assertThat(Files.readString(fs.getPath("/" + nfc))).isEqualTo("new content");
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toList())).containsExactly(nfc);
            }
            assertThat(TestVaults.onlyCiphertextFile(vault).getFileName().toString()).isNotEqualTo(nfdName);
        }
    }
}
