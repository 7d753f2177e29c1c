package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.content.DamagedFileException;
import dev.coffer.core.names.DamagedEntryException;
import dev.coffer.core.vault.InvalidPassphraseException;
import dev.coffer.core.vault.InvalidRecoveryKeyException;
import dev.coffer.core.vault.VaultFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each row of the one exception-to-exit-code table. */
class ExitCodesTableTest {
    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of(new CliException(2, "folder not empty: /x"), 2, "folder not empty: /x"),
                Arguments.of(new InvalidPassphraseException(), 3, "wrong passphrase"),
                Arguments.of(new InvalidRecoveryKeyException("word 3 is wrong"), 3, "invalid recovery key: word 3 is wrong"),
                Arguments.of(new dev.coffer.core.vault.PassphraseOpensConflictCopyException("masterkey.coffer", "masterkey (1).coffer"), 3,
                        new dev.coffer.core.vault.PassphraseOpensConflictCopyException("masterkey.coffer", "masterkey (1).coffer").getMessage()),
                Arguments.of(new VaultFormatException("vault.coffer: not found"), 4, "not a usable vault: vault.coffer: not found"),
                Arguments.of(new DamagedFileException("/a.txt", "bad tag"), 4, "damaged file: /a.txt: bad tag"),
                Arguments.of(new DamagedEntryException("/dir", "loop"), 4, "damaged entry: /dir: loop"),
                Arguments.of(new NoSuchFileException("/n"), 1, "no such file or folder: /n"),
                Arguments.of(new FileAlreadyExistsException("/e"), 1, "already exists: /e"),
                Arguments.of(new NotDirectoryException("/f"), 1, "not a folder: /f"),
                Arguments.of(new DirectoryNotEmptyException("/d"), 1, "folder not empty: /d"),
                Arguments.of(new AccessDeniedException("/p"), 1, "access denied: /p"),
                Arguments.of(new FileSystemException("/q", null, "odd"), 1, "/q: odd"),
                Arguments.of(new ReadOnlyFileSystemException(), 1, "the vault is open read-only"),
                Arguments.of(new IOException("disk full"), 1, "I/O error: disk full"),
                Arguments.of(new IllegalStateException("bug"), 1, "internal error: java.lang.IllegalStateException: bug"),
                Arguments.of(new UncheckedIOException(new InvalidPassphraseException()), 3, "wrong passphrase"),
                Arguments.of(new DirectoryIteratorException(new DamagedEntryException("/x", "y")), 4, "damaged entry: /x: y"),
                Arguments.of(new IOException("line\nbreak\u001b[2J"), 1, "I/O error: line\\x0abreak\\x1b[2J"));
    }

    @ParameterizedTest
    @MethodSource("rows")
    void mapsToCodeAndOneLine(Throwable t, int code, String message) {
        assertThat(ExitCodes.of(t)).isEqualTo(code);
        assertThat(ExitCodes.message(t)).isEqualTo(message);
    }
}
