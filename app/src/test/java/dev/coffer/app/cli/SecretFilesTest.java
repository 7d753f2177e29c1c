package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Passphrase files: the first line without its break, UTF-8 only, must exist. */
class SecretFilesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"pässword 🔐", "pässword 🔐\n", "pässword 🔐\r\n", "pässword 🔐\rnext", "\uFEFFpässword 🔐\nnext\n"})
    void firstLineWithoutLineBreak(String content) throws Exception {
        Path f = Cli.file(tmp, "p", content);
        assertThat(new String(SecretFiles.firstLine(f))).isEqualTo("pässword 🔐");
    }

    @Test
    void spacesAreKept() throws Exception {
        assertThat(new String(SecretFiles.firstLine(Cli.file(tmp, "p", "  two spaces  \n")))).isEqualTo("  two spaces  ");
    }

    @Test
    void notUtf8IsRefused() throws IOException {
        Path f = Files.write(tmp.resolve("p"), new byte[] {'a', (byte) 0xff, 'b'});
        assertThatThrownBy(() -> SecretFiles.firstLine(f)).isInstanceOf(CliException.class).hasMessageContaining("not UTF-8");
    }

    @Test
    void aMissingFileOrAFolderIsRefused() {
        assertThatThrownBy(() -> SecretFiles.firstLine(tmp.resolve("none"))).isInstanceOf(CliException.class);
        assertThatThrownBy(() -> SecretFiles.firstLine(tmp)).isInstanceOf(CliException.class);
    }

    @Test
    void aHugeFileIsRefused() throws IOException {
        Path f = Files.write(tmp.resolve("p"), new byte[SecretFiles.MAX_BYTES + 1]);
        assertThatThrownBy(() -> SecretFiles.firstLine(f)).isInstanceOf(CliException.class).hasMessageContaining("larger");
    }
}
