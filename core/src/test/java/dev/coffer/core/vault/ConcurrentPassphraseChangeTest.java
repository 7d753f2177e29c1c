package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two passphrase changes at the same moment (the app and coffer passwd), both having read the same
 * masterkey file: one wins, the other is refused ("changed while ..."), never both told they
 * succeeded while only the later one's passphrase opens the vault.
 */
class ConcurrentPassphraseChangeTest {
    private static final String OLD = "old passphrase";
    private static final List<String> NEW = List.of("new passphrase one", "new passphrase two");

    @TempDir
    Path tmp;

    @Test
    void ofTwoChangesAtOnceOneWinsAndTheOtherIsRefused() throws Exception {
        // Both read the old file and go on to check and replace it at the same moment.
        VaultOperations ops = new VaultOperations(meetingAfterTheNewKeys(), new SecureRandom());
        Path vault = tmp.resolve("vault");
        ops.create(vault, OLD.getBytes(StandardCharsets.UTF_8), new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220)).close();
        String winner = theOnlyOneThatSucceeds(next ->
                ops.changePassphrase(vault, OLD.getBytes(StandardCharsets.UTF_8), next.getBytes(StandardCharsets.UTF_8)));
        VaultOperations plain = new VaultOperations(Kdf.SCRYPT, new SecureRandom());
        plain.unlock(vault, winner.getBytes(StandardCharsets.UTF_8)).close();
        String loser = winner.equals(NEW.get(0)) ? NEW.get(1) : NEW.get(0);
        assertThatThrownBy(() -> plain.unlock(vault, loser.getBytes(StandardCharsets.UTF_8))).isInstanceOf(IOException.class);
    }

    /**
     * Two recoveries at once over a vault whose masterkey file is gone (nothing to lock on): one
     * writes it, the other is refused; before, the later silently replaced the earlier's file.
     */
    @Test
    void ofTwoRecoveriesOverAMissingMasterkeyFileOneWinsAndTheOtherIsRefused() throws Exception {
        // Both found no masterkey file and go on to write theirs at the same moment.
        VaultOperations ops = new VaultOperations(meetingAfterTheNewKeys(), new SecureRandom());
        Path vault = tmp.resolve("vault");
        ops.create(vault, OLD.getBytes(StandardCharsets.UTF_8), new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220)).close();
        String words = String.join(" ", ops.recoveryKey(vault, OLD.getBytes(StandardCharsets.UTF_8)));
        java.nio.file.Files.delete(vault.resolve("masterkey.coffer"));
        String winner = theOnlyOneThatSucceeds(next -> ops.resetPassphrase(vault, words, next.getBytes(StandardCharsets.UTF_8)));
        new VaultOperations(Kdf.SCRYPT, new SecureRandom()).unlock(vault, winner.getBytes(StandardCharsets.UTF_8)).close();
    }

    /** A change of the vault's masterkey file to a new passphrase. */
    private interface KeyChange {
        void to(String newPassphrase) throws IOException;
    }

    /**
     * Runs {@code change} to both new passphrases at once; asserts that exactly one was refused
     * ("changed while") and returns the one that succeeded.
     */
    private static String theOnlyOneThatSucceeds(KeyChange change) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> changes = new ArrayList<>();
            for (String next : NEW) {
                changes.add(pool.submit(() -> {
                    change.to(next);
                    return null;
                }));
            }
            String winner = null;
            int refused = 0;
            for (int i = 0; i < 2; i++) {
                try {
                    changes.get(i).get(120, TimeUnit.SECONDS);
                    winner = NEW.get(i);
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(IOException.class).hasMessageContaining("changed while");
                    refused++;
                }
            }
            assertThat(refused).isEqualTo(1);
            return winner;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Scrypt, then for either new passphrase a wait for the other one's: the two writes meet. */
    private static Kdf meetingAfterTheNewKeys() {
        CyclicBarrier bothHaveRead = new CyclicBarrier(2);
        return (passphrase, salt, params) -> {
            byte[] kek = Kdf.SCRYPT.kek(passphrase, salt, params);
            if (NEW.contains(new String(passphrase, StandardCharsets.UTF_8))) {
                try {
                    bothHaveRead.await(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return kek;
        };
    }
}
