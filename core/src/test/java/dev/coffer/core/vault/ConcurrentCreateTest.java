package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two creations of a vault in one folder at the same moment (the app and the command line): both
 * find the folder free, but only one may put its root files in place, and the vault then opens with
 * that one's passphrase; the other fails without touching the winner's files.
 */
class ConcurrentCreateTest {
    @TempDir
    Path tmp;

    @Test
    void ofTwoCreationsAtOnceOneWinsAndItsVaultOpens() throws Exception {
        CyclicBarrier bothPastTheCheck = new CyclicBarrier(2);
        Kdf meetingKdf = (passphrase, salt, params) -> {
            try {
                bothPastTheCheck.await(30, TimeUnit.SECONDS); // both creations checked the folder already
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return Kdf.SCRYPT.kek(passphrase, salt, params);
        };
        VaultOperations ops = new VaultOperations(meetingKdf, new SecureRandom());
        Path vault = tmp.resolve("vault");
        VaultCreationOptions options = new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<UnlockedVault>> creations = new ArrayList<>();
        try {
            for (String passphrase : List.of("first passphrase", "second passphrase")) {
                creations.add(pool.submit(() -> ops.create(vault, passphrase.getBytes(StandardCharsets.UTF_8), options)));
            }
            String winner = null;
            int refused = 0;
            for (int i = 0; i < 2; i++) {
                try {
                    creations.get(i).get(60, TimeUnit.SECONDS).close();
                    winner = i == 0 ? "first passphrase" : "second passphrase";
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(FileAlreadyExistsException.class);
                    refused++;
                }
            }
            assertThat(refused).isEqualTo(1);
            assertThat(winner).isNotNull();
            VaultOperations plain = new VaultOperations(Kdf.SCRYPT, new SecureRandom());
            plain.unlock(vault, winner.getBytes(StandardCharsets.UTF_8)).close();
        } finally {
            pool.shutdownNow();
        }
    }
}
