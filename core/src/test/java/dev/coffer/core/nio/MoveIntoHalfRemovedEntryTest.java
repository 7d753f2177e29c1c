package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.names.LongNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file moved over a long-named file whose entry folder lost its {@code name.c9s} (a removal that
 * stopped half-way): the entry gets its name file back, so listings show the moved file.
 */
class MoveIntoHalfRemovedEntryTest {
    @TempDir
    Path tmp;

    @Test
    void theMovedFileIsListed() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            String longName = "a long name ".repeat(20) + ".txt";
            Files.writeString(fs.getPath("/" + longName), "old");
            Path nameFile;
            try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
                nameFile = s.filter(p -> p.getFileName().toString().equals(LongNames.NAME_FILE)).findFirst().orElseThrow();
            }
            Files.delete(nameFile);
            Files.writeString(fs.getPath("/short.txt"), "new");

            Files.move(fs.getPath("/short.txt"), fs.getPath("/" + longName), StandardCopyOption.REPLACE_EXISTING);

            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toList())).containsExactly(longName);
            }
            assertThat(Files.readString(fs.getPath("/" + longName))).isEqualTo("new");
        }
    }
}
