package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** import -> ls -> cat -> export gives back a byte-identical tree (files, folders, symlinks). */
class TreeRoundTripTest {
    static final String PASSPHRASE = "correct horse battery";

    @TempDir
    Path tmp;

    Path source;
    Path vault;
    byte[] big;

    @BeforeEach
    void setUp() throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        big = new byte[100_000 + 17]; // many 4 KiB units and a partial last one
        new Random(42).nextBytes(big);
        Files.writeString(source.resolve("hello.txt"), "hello from the plain side\n");
        Files.write(source.resolve("empty.bin"), new byte[0]);
        Files.createDirectories(source.resolve("docs/deeper/deepest"));
        Files.write(source.resolve("docs/big.bin"), big);
        Files.writeString(source.resolve("docs/deeper/deepest/Grüße 🎉.txt"), "non-ASCII name\n");
        Files.createDirectory(source.resolve("empty-folder"));
        Files.createSymbolicLink(source.resolve("link-to-file"), Path.of("hello.txt"));
        Files.createSymbolicLink(source.resolve("docs/link-to-folder"), Path.of("deeper"));
        Files.createSymbolicLink(source.resolve("dangling"), Path.of("does/not/exist"));
        Files.createSymbolicLink(source.resolve("absolute"), Path.of("/nonexistent/target"));
        vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
    }

    @Test
    void importLsCatExportGivesTheSameTree() throws IOException {
        Cli.Result imported = cli().run("import", vault.toString(), source.toString());
        assertThat(imported.code()).as(imported.toString()).isZero();
        assertThat(imported.out()).contains("Imported 4 files, 4 folders, 4 symlinks into /");

        Cli.Result ls = cli().run("ls", vault.toString());
        assertThat(ls.code()).as(ls.toString()).isZero();
        assertThat(ls.out().lines()).containsExactly(
                "l           19  absolute -> /nonexistent/target",
                "l           14  dangling -> does/not/exist",
                "d            -  docs",
                "d            -  empty-folder",
                "f            0  empty.bin",
                "f           26  hello.txt",
                "l            9  link-to-file -> hello.txt");
        assertThat(cli().run("ls", vault.toString(), "/docs").out())
                .contains("f       100017  big.bin").contains("link-to-folder -> deeper");
        assertThat(cli().run("ls", vault.toString(), "docs/big.bin").out().lines()).containsExactly("f       100017  big.bin");

        assertThat(cli().run("cat", vault.toString(), "/docs/big.bin").outBytes()).isEqualTo(big);
        Cli.Result cat = cli().run("cat", vault.toString(), "docs/deeper/deepest/Grüße 🎉.txt");
        assertThat(cat.out()).isEqualTo("non-ASCII name\n");

        Path exported = tmp.resolve("exported");
        Cli.Result export = cli().run("export", vault.toString(), exported.toString());
        assertThat(export.code()).as(export.toString()).isZero();
        assertThat(export.err()).isEmpty();
        assertThat(Manifest.of(exported)).isEqualTo(Manifest.of(source)).hasSize(12);
    }

    @Test
    void importToAndExportFromASubfolder() throws IOException {
        assertThat(cli().run("import", vault.toString(), source.toString(), "--to", "/a/b").code()).isZero();
        assertThat(cli().run("ls", vault.toString(), "/a").out().lines()).containsExactly("d            -  b");
        Path exported = tmp.resolve("exported");
        assertThat(cli().run("export", vault.toString(), exported.toString(), "--from", "a/b").code()).isZero();
        assertThat(Manifest.of(exported)).isEqualTo(Manifest.of(source));
    }

    @Test
    void importNeverReplacesAFile() {
        assertThat(cli().run("import", vault.toString(), source.toString()).code()).isZero();
        Cli.Result again = cli().run("import", vault.toString(), source.toString());
        assertThat(again.code()).isEqualTo(ExitCodes.OTHER);
        assertThat(again.err()).contains("already exists: /");
    }

    @Test
    void anImportOfAFolderHoldingTheVaultIsRefused() throws IOException {
        // tmp holds the vault, as ~ holds ~/Dropbox/vault: its ciphertext would be copied into itself.
        Path link = Files.createSymbolicLink(tmp.resolve("tmp-link"), tmp);
        List<String> before = listing(vault);
        for (Path src : new Path[] {tmp, link, vault, link.resolve("vault")}) {
            Cli.Result r = cli().run("import", vault.toString(), src.toString());
            assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("must not hold the vault folder").contains(src.toString());
        }
        assertThat(listing(vault)).isEqualTo(before);
    }

    @Test
    void anImportFromInsideTheVaultFolderIsRefused() throws IOException {
        List<String> before = listing(vault);
        Cli.Result r = cli().run("import", vault.toString(), vault.resolve("d").toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("must not be inside the vault folder");
        assertThat(listing(vault)).isEqualTo(before);
    }

    private static List<String> listing(Path folder) throws IOException {
        try (Stream<Path> all = Files.walk(folder)) {
            return all.map(p -> folder.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void exportRefusesANonEmptyDestination() throws IOException {
        Path dest = Files.createDirectory(tmp.resolve("dest"));
        Files.writeString(dest.resolve("keep.txt"), "mine");
        Cli.Result r = cli().run("export", vault.toString(), dest.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("not empty");
        assertThat(Files.readString(dest.resolve("keep.txt"))).isEqualTo("mine");
    }

    @Test
    void catAndLsOfAMissingPathExit1() {
        Cli.Result cat = cli().run("cat", vault.toString(), "/nope.txt");
        assertThat(cat.code()).isEqualTo(ExitCodes.OTHER);
        assertThat(cat.err()).contains("no such file or folder: /nope.txt");
        assertThat(cli().run("ls", vault.toString(), "/nope").code()).isEqualTo(ExitCodes.OTHER);
    }

    private static Cli cli() {
        return Cli.withPassphrase(PASSPHRASE);
    }
}
