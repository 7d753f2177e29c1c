package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.health.VaultUseLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coffer check}: exit 0 healthy, 5 problems found, and the repair flow (say, ask or --yes, repair, check again). */
class CheckCommandTest {
    private static final String PASSPHRASE = "check passphrase";

    @TempDir
    Path tmp;

    /** A vault with one folder whose dirid.c9r is gone (repairable). */
    private Path vaultWithMissingDirId() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Path src = Files.createDirectories(tmp.resolve("src/folder"));
        Files.writeString(src.resolve("note.txt"), "hello");
        Cli.Result imported = Cli.withPassphrase(PASSPHRASE).run("import", vault.toString(), tmp.resolve("src").toString());
        assertThat(imported.code()).as(imported.toString()).isZero();
        List<Path> dirIds;
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            dirIds = s.filter(p -> p.getFileName().toString().equals("dirid.c9r")).filter(p -> p.toFile().length() > 0).toList();
        }
        assertThat(dirIds).hasSize(1);
        Files.delete(dirIds.get(0));
        return vault;
    }

    /**
     * A vault whose folders {@code /a} and {@code /b} point at one directory ID (a {@code dir.c9r}
     * copied over the other by a tool) and whose files' headers are damaged: the repair copies the
     * shared folder's file as it is.
     */
    private Path vaultWithSharedIdAndDamagedFiles() throws IOException {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Files.writeString(Files.createDirectories(tmp.resolve("src/a")).resolve("f.txt"), "hello from a");
        Files.writeString(Files.createDirectories(tmp.resolve("src/b")).resolve("g.txt"), "hello from b");
        Cli.Result imported = Cli.withPassphrase(PASSPHRASE).run("import", vault.toString(), tmp.resolve("src").toString());
        assertThat(imported.code()).as(imported.toString()).isZero();
        List<Path> pointers;
        List<Path> files;
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            List<Path> all = s.toList();
            pointers = all.stream().filter(p -> p.getFileName().toString().equals("dir.c9r")).toList();
            files = all.stream().filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".c9r") && !p.getFileName().toString().startsWith("di"))
                    .toList();
        }
        assertThat(pointers).hasSize(2);
        assertThat(files).hasSize(2);
        Files.copy(pointers.get(0), pointers.get(1), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        for (Path file : files) {
            byte[] damaged = Files.readAllBytes(file);
            damaged[20] ^= 0x55; // inside the header
            Files.write(file, damaged);
        }
        return vault;
    }

    @Test
    void aRepairThatCopiesADamagedFileAsItIsSaysSo() throws IOException {
        Path vault = vaultWithSharedIdAndDamagedFiles();
        Cli.Result before = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString());
        assertThat(before.out()).as(before.toString()).contains("[repairable]");

        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString(), "--repair", "--yes");
        assertThat(r.err()).as(r.toString()).doesNotContain("repair failed");
        assertThat(r.out()).as(r.toString()).containsPattern("Note: /[ab]/[fg]\\.txt .*was copied byte for byte.*damaged");
    }

    @Test
    void aHealthyVaultExits0() {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("Healthy: 0 error(s), 0 warning(s), 0 note(s); 0 repairable");
    }

    @Test
    void theDamagedSampleVaultExits5AndNamesCleartextPaths() throws IOException {
        Path vault = SampleVaults.copy("damaged-vault-xtshmac", tmp);
        Cli.Result r = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("check", vault.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(r.out()).contains("ERROR   damaged file header: /sectors/size-04097.bin")
                .contains("ERROR   content fails authentication: /sectors/size-12295.bin")
                .contains("WARNING unresolved sync conflict: /hello world.txt  [repairable]")
                .contains("ERROR   interrupted write: /sectors/size-08192.bin  [repairable]")
                .contains("a write cut short by a crash (or the end was tampered with): cleartext bytes 0..4095 are readable")
                .contains("Problems found:");
        // check alone writes nothing: the conflict copies are still there
        assertThat(Cli.withPassphrase(SampleVaults.PASSPHRASE).run("check", vault.toString()).out()).isEqualTo(r.out());
    }

    @Test
    void repairWithYesRepairsAndChecksAgain() throws IOException {
        Path vault = vaultWithMissingDirId();
        Cli.Result before = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString());
        assertThat(before.code()).as(before.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(before.out()).contains("WARNING missing dirid.c9r: /folder  [repairable]");

        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString(), "--repair", "--yes");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("Repairs (1):").contains("Repaired 1 of 1.").contains("Checking again:")
                .endsWith("Healthy: 0 error(s), 0 warning(s), 0 note(s); 0 repairable\n");
        Cli.Result after = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString());
        assertThat(after.code()).as(after.toString()).isEqualTo(ExitCodes.OK);
        assertThat(Cli.withPassphrase(PASSPHRASE).run("cat", vault.toString(), "/folder/note.txt").out()).isEqualTo("hello");
    }

    @Test
    void repairRefusesWhileTheVaultIsInUseAndChangesNothing() throws IOException {
        Path vault = vaultWithMissingDirId();
        // What `coffer mount` holds while the vault is mounted (VaultUseLockTest holds it from another process).
        try (VaultUseLock mounted = VaultUseLock.forUse(vault)) {
            assertThat(mounted).isNotNull();
            Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString(), "--repair", "--yes");
            assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.OTHER);
            assertThat(r.err()).contains("the vault is in use (mounted by Coffer, or being repaired)");
        }
        assertThat(Cli.withPassphrase(PASSPHRASE).run("check", vault.toString()).out()).contains("missing dirid.c9r: /folder  [repairable]");
    }

    @Test
    void repairAsksOnTheTerminalAndDoesNothingUnlessToldYes() throws IOException {
        Path vault = vaultWithMissingDirId();
        Cli.Result no = Cli.withPassphrase(PASSPHRASE).typing("no").run("check", vault.toString(), "--repair");
        assertThat(no.code()).as(no.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(no.out()).contains("Repairs (1):").contains("Nothing was repaired.");

        Cli.Result yes = Cli.withPassphrase(PASSPHRASE).typing("yes").run("check", vault.toString(), "--repair");
        assertThat(yes.code()).as(yes.toString()).isEqualTo(ExitCodes.OK);
        assertThat(yes.out()).contains("Repaired 1 of 1.");
    }

    @Test
    void repairWithoutTerminalOrYesIsAUsageErrorAndChangesNothing() throws IOException {
        Path vault = vaultWithMissingDirId();
        Cli.Result r = Cli.withPassphrase(PASSPHRASE).run("check", vault.toString(), "--repair");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--yes");
        assertThat(Cli.withPassphrase(PASSPHRASE).run("check", vault.toString()).code()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(Cli.withPassphrase(PASSPHRASE).run("check", vault.toString(), "--yes").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void repairOfTheDamagedSampleVaultLeavesOnlyWhatCannotBeRepaired() throws IOException {
        Path vault = SampleVaults.copy("damaged-vault-xts", tmp);
        Cli.Result r = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("check", vault.toString(), "--repair", "--yes");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        Cli.Result again = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("check", vault.toString());
        assertThat(again.code()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(again.out()).doesNotContain("[repairable]").contains("ERROR   damaged file header: /sectors/size-04097.bin");
        assertThat(Cli.withPassphrase(SampleVaults.PASSPHRASE).run("ls", vault.toString(), "/").out()).contains("tiny (Conflict 1)");
    }

    @Test
    void anInterruptedWriteIsCutBackToItsReadableBytesAfterACopyIsKept() throws IOException {
        // Item j of damage.json: a file of two units cut exactly after the first, as a crash mid-write can leave it.
        Path vault = SampleVaults.copy("damaged-vault-xtshmac", tmp);
        Cli.Result r = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("check", vault.toString(), "--repair", "--yes");
        assertThat(r.out()).contains("truncate /sectors/size-08192.bin (").contains("to its 4096 readable bytes, after keeping a copy"
                + " of the ciphertext file as repair-backups/d/");
        Cli.Result again = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("check", vault.toString());
        assertThat(again.out()).doesNotContain("interrupted write");
        Cli.Result cat = Cli.withPassphrase(SampleVaults.PASSPHRASE).run("cat", vault.toString(), "/sectors/size-08192.bin");
        assertThat(cat.code()).as(cat.toString()).isZero();
        // the first unit of the original, as the SIV_XTS copy of the same damage reads (damaged-vault-xts.manifest)
        assertThat(HexFormat.of().formatHex(sha256(cat.outBytes())))
                .isEqualTo("e1162412ca2e638fb58c9a9d6e6479b49530b6016b156ab5223efacf356b466f");
        try (Stream<Path> s = Files.walk(vault.resolve("repair-backups"))) {
            assertThat(s.filter(Files::isRegularFile).map(p -> p.getFileName().toString())).hasSize(2).allMatch(n -> n.endsWith(".bkup"));
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aWrongPassphraseExits3() {
        Path vault = Cli.createVault(tmp.resolve("vault"), PASSPHRASE);
        assertThat(Cli.withPassphrase("not the passphrase").run("check", vault.toString()).code()).isEqualTo(ExitCodes.WRONG_PASSPHRASE);
    }
}
