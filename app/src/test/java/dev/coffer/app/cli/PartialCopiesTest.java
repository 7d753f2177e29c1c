package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An import or export that runs out of space leaves no cut-short file under the real name (which a
 * health check could not tell from a whole one), names the file it stopped at, and leaves no
 * partial copy behind; an export into the vault folder is refused.
 */
class PartialCopiesTest {
    private static final String PASSPHRASE = "partial copies passphrase";

    @TempDir
    Path tmp;
    private Path small;

    /** A 1 MiB tmpfs (CI runs as root, like the FUSE tests). */
    private Path smallDisk() throws Exception {
        small = Files.createDirectory(tmp.resolve("small"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.toString()).inheritIO().start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as("mount a tmpfs").isTrue();
        return small;
    }

    @AfterEach
    void unmountSmallDisk() throws Exception {
        if (small != null) {
            new ProcessBuilder("umount", small.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static Cli cli() {
        return Cli.withPassphrase(PASSPHRASE);
    }

    @Test
    void anImportThatFillsTheDiskKeepsNoPartOfTheFile() throws Exception {
        Path vault = Cli.createVault(smallDisk().resolve("vault"), PASSPHRASE);
        Path source = Files.createDirectory(tmp.resolve("source"));
        Files.writeString(source.resolve("a-small.txt"), "small");
        byte[] large = new byte[4 << 20];
        new Random(1).nextBytes(large);
        Files.write(source.resolve("large.bin"), large);

        Cli.Result r = cli().run("import", vault.toString(), source.toString());

        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.err()).contains("large.bin was not imported");
        Cli.Result ls = cli().run("ls", vault.toString());
        assertThat(ls.out()).doesNotContain("large.bin").doesNotContain(".coffer-partial-");
    }

    @Test
    void anExportThatFillsTheDiskKeepsNoPartOfTheFile() throws Exception {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Path source = Files.createDirectory(tmp.resolve("source"));
        byte[] large = new byte[4 << 20];
        new Random(2).nextBytes(large);
        Files.write(source.resolve("large.bin"), large);
        assertThat(cli().run("import", vault.toString(), source.toString()).code()).isZero();
        Path dest = smallDisk().resolve("dest");

        Cli.Result r = cli().run("export", vault.toString(), dest.toString());

        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.err()).contains("large.bin was not exported");
        try (Stream<Path> left = Files.list(dest)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void anExportIntoTheVaultFolderIsRefused() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Path link = Files.createSymbolicLink(tmp.resolve("vault-link"), vault);
        for (Path dest : new Path[] {vault.resolve("plain"), link.resolve("plain")}) {
            Cli.Result r = cli().run("export", vault.toString(), dest.toString());
            assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("must not be inside the vault folder");
            assertThat(Files.exists(vault.resolve("plain"))).isFalse();
        }
    }
}
