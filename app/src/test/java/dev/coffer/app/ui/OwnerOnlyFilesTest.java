package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The saved recovery key is readable by its owner only, also when it replaces a file that was not;
 * the bytes handed over are zeroed once written, and when the write fails.
 */
class OwnerOnlyFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aNewOrReplacedFileIsTheOwnersAlone() throws Exception {
        Path fresh = tmp.resolve("recovery key.txt");
        OwnerOnlyFiles.write(fresh, "words".getBytes(StandardCharsets.UTF_8));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rw-------");
        assertThat(Files.readString(fresh)).isEqualTo("words");

        Path old = Files.writeString(tmp.resolve("old.txt"), "old");
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
        OwnerOnlyFiles.write(old, "new words".getBytes(StandardCharsets.UTF_8));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(old))).isEqualTo("rw-------");
        assertThat(Files.readString(old)).isEqualTo("new words");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("recovery key.txt", "old.txt");
        }
    }

    @Test
    void theBytesHandedOverAreZeroedOnceWrittenAndWhenTheWriteFails() throws Exception {
        byte[] content = "abandon ability able".getBytes(StandardCharsets.UTF_8);
        Path saved = tmp.resolve("recovery key.txt");
        OwnerOnlyFiles.write(saved, content);
        assertThat(Files.readString(saved)).isEqualTo("abandon ability able");
        assertThat(content).containsOnly((byte) 0);

        byte[] unsaved = "abandon ability able".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> OwnerOnlyFiles.write(tmp.resolve("no such folder").resolve("key.txt"), unsaved))
                .isInstanceOf(IOException.class);
        assertThat(unsaved).containsOnly((byte) 0);
    }
}
