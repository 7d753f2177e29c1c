package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code coffer mount} refuses before it asks for a passphrase (the mounting itself: MountIT). */
class MountCommandTest {
    @TempDir
    Path tmp;

    @Test
    void notAVaultIsExit4BeforeAnyPrompt() throws Exception {
        Path notVault = Files.createDirectories(tmp.resolve("plain"));
        Cli.Result r = Cli.withEnv().typing("never asked").run("mount", notVault.toString(), tmp.resolve("mnt").toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(4);
        assertThat(r.err()).startsWith("coffer: not a vault");
        assertThat(Files.exists(tmp.resolve("mnt"))).isFalse();
    }

    @Test
    void aMountPointInsideTheVaultIsRefused() throws Exception {
        Path vault = Cli.createVault(tmp.resolve("vault"), "correct horse battery");
        Cli.Result r = Cli.withEnv().run("mount", vault.toString(), vault.resolve("d/mnt").toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("must not be inside the vault folder");
        assertThat(Files.exists(vault.resolve("d/mnt"))).isFalse();
    }

    @Test
    void missingArgumentsAreUsageErrors() {
        Cli.Result r = Cli.withEnv().run("mount", tmp.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("MOUNTPOINT");
    }
}
