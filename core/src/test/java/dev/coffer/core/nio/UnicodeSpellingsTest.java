package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name in another Unicode normal form is the same name in a vault (spec 4): the checks that
 * keep a move or a copy from destroying its own source must hold for every spelling, as macOS
 * programs send NFD names and others NFC.
 */
class UnicodeSpellingsTest {
    private static final String NFC = "\u00e9t\u00e9"; // "été", precomposed
    private static final String NFD = "e\u0301te\u0301"; // the same name, decomposed

    @TempDir
    Path tmp;

    @Test
    void aFolderCannotBeMovedIntoItselfThroughAnotherSpellingOfItsName() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.createDirectory(fs.getPath("/" + NFC));
            Files.writeString(fs.getPath("/" + NFC + "/photos.txt"), "many photos");

            assertThatThrownBy(() -> Files.move(fs.getPath("/" + NFD), fs.getPath("/" + NFC + "/sub")))
                    .isInstanceOf(FileSystemException.class).hasMessageContaining("into itself");
            assertThatThrownBy(() -> Files.move(fs.getPath("/" + NFC), fs.getPath("/" + NFD + "/sub/deeper")))
                    .isInstanceOf(FileSystemException.class);

            assertThat(names(fs.getPath("/"))).containsExactly(NFC);
            assertThat(Files.readString(fs.getPath("/" + NFC + "/photos.txt"))).isEqualTo("many photos");
        }
    }

    @Test
    void aFolderMovesBesideItselfWhenOnlyAPrefixOfItsNameIsShared() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.createDirectory(fs.getPath("/" + NFC));
            Files.createDirectory(fs.getPath("/" + NFC + "s"));

            Files.move(fs.getPath("/" + NFD), fs.getPath("/" + NFC + "s/" + NFC));

            assertThat(names(fs.getPath("/" + NFC + "s"))).containsExactly(NFC);
        }
    }

    @Test
    void aFileCopiedOntoItselfThroughAnotherSpellingWithReplaceStaysIntact() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.writeString(fs.getPath("/r" + NFC + ".txt"), "an hour of work");

            Files.copy(fs.getPath("/r" + NFC + ".txt"), fs.getPath("/r" + NFD + ".txt"), StandardCopyOption.REPLACE_EXISTING);

            assertThat(Files.readString(fs.getPath("/r" + NFC + ".txt"))).isEqualTo("an hour of work");
            assertThat(names(fs.getPath("/"))).containsExactly("r" + NFC + ".txt");
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
