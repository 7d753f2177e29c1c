package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Every allowed transition of the state machine, and that the others are refused. */
class ManagedVaultTest {
    private final ManagedVault v = new ManagedVault(new VaultSettings("id", "Taxes", "/v", MountMethod.AUTO, "", false, 0,
            false, true));

    @Test
    void theHappyCycle() {
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        v.beginUnlock();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKING);
        v.unlocked(new UnlockedSession(null, null, null, Instant.EPOCH));
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        v.beginLock();
        assertThat(v.state()).isEqualTo(VaultState.LOCKING);
        v.lockFailed();
        assertThat(v.state()).isEqualTo(VaultState.UNLOCKED);
        v.beginLock();
        v.locked();
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        assertThat(v.session()).isEmpty();
    }

    @Test
    void aWrongPassphraseGoesBackToLockedOtherProblemsToError() {
        v.beginUnlock();
        v.unlockFailed(new VaultException(Problem.WRONG_PASSPHRASE, ""));
        assertThat(v.state()).isEqualTo(VaultState.LOCKED);
        v.beginUnlock();
        v.unlockFailed(new VaultException(Problem.NOT_A_VAULT, "/v"));
        assertThat(v.state()).isEqualTo(VaultState.ERROR);
        assertThat(v.problem()).get().extracting(VaultException::problem).isEqualTo(Problem.NOT_A_VAULT);
        v.beginUnlock(); // retry from ERROR
        assertThat(v.problem()).isEmpty();
    }

    @Test
    void illegalTransitionsAreRefused() {
        assertThatThrownBy(v::beginLock).isInstanceOf(IllegalStateException.class).hasMessageContaining("LOCKED");
        assertThatThrownBy(v::locked).isInstanceOf(IllegalStateException.class);
        v.beginUnlock();
        assertThatThrownBy(v::beginUnlock).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(v::beginLock).isInstanceOf(IllegalStateException.class);
    }
}
