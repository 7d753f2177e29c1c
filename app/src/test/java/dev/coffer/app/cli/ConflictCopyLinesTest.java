package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.vaults.TestVaults;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.ConflictCopy;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code coffer mount} and {@code coffer serve} print on stderr when core keeps a program's
 * writes as a conflict copy (the same listener both commands register before their drive exists).
 */
class ConflictCopyLinesTest {
    @TempDir
    Path tmp;

    @Test
    void aConflictCopyPrintsOneLineWithTheVaultPaths() throws Exception {
        Path vault = tmp.resolve("v");
        VaultCreationOptions defaults = VaultCreationOptions.defaults();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(),
                new VaultCreationOptions(defaults.cipherCombo(), 1 << 14, defaults.shorteningThreshold()))) {
            ConflictCopyLines.printTo(fs, new PrintStream(err, true, StandardCharsets.UTF_8));
            TestVaults.orphanedWriter(fs.getPath("/"), vault, "/docs/report.txt", "written here").close();
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("coffer: WARN \"/docs/report.txt\" was changed here while "
                + "another device replaced or deleted it; what was written here is kept as \"/docs/report.txt (Conflict 1)\""
                + System.lineSeparator());
    }

    @Test
    void aCopyKeptInPartOrNotAtAllSaysSoAndNamesAreEscaped() {
        assertThat(ConflictCopyLines.line(ConflictCopy.keptInPart("/film.mkv", "/film.mkv (Conflict 2)"))).isEqualTo(
                "coffer: WARN \"/film.mkv\" was changed here while another device replaced or deleted it; only part of what "
                        + "was written here could be kept, as \"/film.mkv (Conflict 2)\"; the rest is lost");
        assertThat(ConflictCopyLines.line(ConflictCopy.notKept("/a\u001b[2Jb"))).isEqualTo(
                "coffer: WARN \"/a\\x1b[2Jb\" was changed here while another device replaced or deleted it; what was written "
                        + "here could not be kept (a full disk, or the file damaged)");
    }
}
