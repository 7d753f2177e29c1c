package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The damaged copy of the independent sample vault: export names every unreadable file, exports
 * everything else the vault lists, byte for byte as damaged-vault-xtshmac.manifest says, and exits 4.
 */
class DamagedVaultTest {
    static final List<String> UNREADABLE = List.of("/sectors/size-04097.bin", "/sectors/size-04112.bin",
            "/sectors/size-08192.bin", "/sectors/size-08208.bin", "/sectors/size-12295.bin");

    @TempDir
    Path tmp;

    @Test
    void exportSkipsAndNamesTheDamagedFilesAndExits4() throws IOException {
        Path vault = SampleVaults.copy("damaged-vault-xtshmac", tmp);
        Path exported = tmp.resolve("exported");
        Cli.Result r = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("export", vault.toString(), exported.toString());

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.VAULT_DAMAGED);
        List<String> skipped = r.err().lines().filter(l -> l.startsWith("coffer: skipped, cannot read ")).toList();
        assertThat(skipped).hasSize(UNREADABLE.size());
        for (String path : UNREADABLE) {
            assertThat(skipped).anyMatch(l -> l.startsWith("coffer: skipped, cannot read " + path + ": "));
        }
        assertThat(r.err()).contains("5 damaged item(s) could not be read");

        // The export is exactly what the independent implementation expects.
        List<String> expected = Manifest.read(SampleVaults.testdata().resolve("damaged-vault-xtshmac.manifest"));
        assertThat(Manifest.of(exported)).isEqualTo(expected);
        for (String path : UNREADABLE) {
            assertThat(exported.resolve(path.substring(1))).doesNotExist();
        }
    }

    @Test
    void catOfADamagedFileExits4AndNamesIt() throws IOException {
        Path vault = SampleVaults.copy("damaged-vault-xtshmac", tmp);
        Cli.Result r = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("cat", vault.toString(), "sectors/size-04097.bin");
        assertThat(r.code()).isEqualTo(ExitCodes.VAULT_DAMAGED);
        assertThat(r.err()).startsWith("coffer: damaged file: /sectors/size-04097.bin");
    }

    @Test
    void lsShowsTheSizesFromTheCiphertextLength() throws IOException {
        Path vault = SampleVaults.copy("damaged-vault-xtshmac", tmp);
        Cli.Result r = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("ls", vault.toString(), "/sectors");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out().lines()).contains("f         4097  size-04097.bin", "f            0  size-04112.bin",
                "f         4096  size-08192.bin");
    }
}
