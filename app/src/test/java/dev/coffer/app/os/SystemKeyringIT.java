package dev.coffer.app.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SystemKeyring} against a real Secret Service (GNOME Keyring on a private D-Bus session,
 * {@link DesktopSession}): a passphrase is stored where other Secret Service clients
 * ({@code secret-tool}) find it, read back, replaced, and forgotten; the arrays handed in are wiped.
 */
class SystemKeyringIT {
    @TempDir
    static Path tmp;

    private static DesktopSession session;

    @BeforeAll
    static void startSecretService() throws Exception {
        session = DesktopSession.start(tmp);
    }

    @AfterAll
    static void stopSecretService() throws Exception {
        session.close();
    }

    @Test
    void storesReadsReplacesAndForgetsAPassphrase() throws Exception {
        try (PassphraseStore keyring = SystemKeyring.open()) {
            storeReadReplaceForget(keyring);
        }
    }

    private static void storeReadReplaceForget(PassphraseStore keyring) throws Exception {
        assertThat(keyring.unavailableReason()).isEmpty();

        char[] passphrase = "correct horse battery staple".toCharArray();
        keyring.save("vault-1", passphrase);
        assertThat(passphrase).containsOnly('\0');
        assertThat(keyring.load("vault-1")).hasValueSatisfying(p -> assertThat(new String(p)).isEqualTo("correct horse battery staple"));
        // really in the Secret Service, where the desktop's own tools see it
        assertThat(session.lookup("service", "Coffer", "account", "vault-1")).isEqualTo("correct horse battery staple");
        assertThat(keyring.load("vault-2")).isEmpty();

        keyring.save("vault-1", "a new passphrase".toCharArray());
        assertThat(keyring.load("vault-1")).hasValueSatisfying(p -> assertThat(new String(p)).isEqualTo("a new passphrase"));

        keyring.delete("vault-1");
        assertThat(keyring.load("vault-1")).isEmpty();
        assertThat(session.lookup("service", "Coffer", "account", "vault-1")).isEmpty();
        keyring.delete("vault-1"); // forgetting twice is harmless
    }

    @Test
    void aSecondStoreSeesWhatTheFirstSaved() throws Exception {
        try (PassphraseStore first = SystemKeyring.open(); PassphraseStore second = SystemKeyring.open()) {
            first.save("vault-3", "shared passphrase".toCharArray());
            assertThat(second.load("vault-3")).hasValueSatisfying(p -> assertThat(new String(p)).isEqualTo("shared passphrase"));
            second.delete("vault-3");
            assertThat(first.load("vault-3")).isEmpty();
        }
    }
}
