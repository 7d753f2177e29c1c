package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock between a vault in use and a repair, held by another process as a mount holds it. */
class VaultUseLockTest {
    @TempDir
    Path tmp;

    /** Holds the shared lock of a vault in use until its standard input ends (run in a child JVM). */
    public static final class Holder {
        public static void main(String[] args) throws IOException {
            try (VaultUseLock lock = VaultUseLock.forUse(Path.of(args[0]))) {
                System.out.println(lock == null ? "refused" : "held");
                System.out.flush();
                System.in.readAllBytes();
            }
        }
    }

    @Test
    void aRepairIsRefusedWhileAnotherProcessHasTheVaultOpen() throws Exception {
        HealthFixture v = HealthFixture.create(tmp, dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC);
        byte[] before = Files.readAllBytes(v.vault.resolve("vault.coffer"));
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Holder.class.getName(), v.vault.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("held");
            assertThat(VaultUseLock.forRepair(v.vault)).as("repair while mounted").isNull();
            // A second user is refused: two processes writing one vault lose each other's writes.
            assertThatThrownBy(() -> VaultUseLock.forUse(v.vault)).isInstanceOf(VaultOpenElsewhereException.class);
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        try (VaultUseLock repair = VaultUseLock.forRepair(v.vault)) {
            assertThat(repair).as("repair once the other process is gone").isNotNull();
            assertThat(VaultUseLock.forUse(v.vault)).as("use while repairing (this process)").isNull();
        }
        assertThat(Files.readAllBytes(v.vault.resolve("vault.coffer"))).isEqualTo(before);
    }

    /**
     * Every unlock, passphrase change and recovery-key display reads vault.coffer again: that must not
     * let a repair in while the vault is in use (a POSIX lock would be gone with that descriptor).
     */
    @Test
    void readingVaultCofferAgainKeepsTheVaultInUse() throws Exception {
        HealthFixture v = HealthFixture.create(tmp, dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC);
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RereadingHolder.class.getName(), v.vault.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("held, read again");
            assertThat(VaultUseLock.forRepair(v.vault)).as("repair while mounted").isNull();
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * A sync client re-delivers vault.coffer (a new file renamed over it): the use's flock stays on the
     * old file, so the repair must also find the vault folder's lock taken.
     */
    @Test
    void aRepairIsRefusedWhileInUseAfterASyncClientReplacedVaultCoffer() throws Exception {
        HealthFixture v = HealthFixture.create(tmp, dev.coffer.core.vault.CipherCombo.SIV_XTSHMAC);
        Path vaultCoffer = v.vault.resolve("vault.coffer");
        try (VaultUseLock use = VaultUseLock.forUse(v.vault)) {
            assertThat(use).isNotNull();
            Path synced = Files.copy(vaultCoffer, tmp.resolve("vault.coffer.sync-tmp"));
            Files.move(synced, vaultCoffer, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            try (VaultUseLock repair = VaultUseLock.forRepair(v.vault)) {
                assertThat(repair).as("repair while in use").isNull();
            }
        }
        try (VaultUseLock repair = VaultUseLock.forRepair(v.vault)) {
            assertThat(repair).as("repair once the use ended").isNotNull();
            assertThat(VaultUseLock.forUse(v.vault)).as("use while repairing").isNull();
        }
        try (VaultUseLock use = VaultUseLock.forUse(v.vault)) {
            assertThat(use).as("use once the repair ended: it released the folder too").isNotNull();
        }
    }

    /** Holds the shared lock, then reads vault.coffer as an unlock does, until its standard input ends (a child JVM). */
    public static final class RereadingHolder {
        public static void main(String[] args) throws IOException {
            try (VaultUseLock lock = VaultUseLock.forUse(Path.of(args[0]))) {
                Files.readAllBytes(Path.of(args[0], "vault.coffer"));
                System.out.println(lock == null ? "refused" : "held, read again");
                System.out.flush();
                System.in.readAllBytes();
            }
        }
    }
}
