package dev.coffer.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/**
 * Locking: after {@code destroy()} every key holder is marked destroyed, holds only zero bytes where
 * we can see them, and refuses further use with {@link IllegalStateException}.
 */
class DestroyTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void masterKeyIsZeroedAndRefusesUse() {
        MasterKey m = MasterKey.generate(RANDOM);
        assertThat(m.allBytesZero()).isFalse();
        m.destroy();
        assertThat(m.isDestroyed()).isTrue();
        assertThat(m.allBytesZero()).isTrue();
        assertThatThrownBy(() -> m.derive("coffer/siv", 64)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(m::copyBytes).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void destroyedMasterKeysAreNotComparedAsEqual() {
        byte[] bytes = new byte[64];
        RANDOM.nextBytes(bytes);
        MasterKey a = MasterKey.of(bytes);
        MasterKey b = MasterKey.of(bytes);
        MasterKey other = MasterKey.generate(RANDOM);
        assertThat(a.sameKeyAs(b)).isTrue();
        assertThat(a.sameKeyAs(other)).isFalse();
        a.destroy();
        b.destroy();
        // Two zeroed keys must not pass for the same vault key.
        assertThatThrownBy(() -> a.sameKeyAs(b)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> other.sameKeyAs(a)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void masterKeyOfCopiesItsInput() {
        byte[] bytes = new byte[64];
        RANDOM.nextBytes(bytes);
        byte[] copy = bytes.clone();
        MasterKey m = MasterKey.of(bytes);
        m.destroy();
        assertThat(bytes).isEqualTo(copy);
    }

    @Test
    void destroyableKeyIsZeroedAndRefusesUse() {
        byte[] source = new byte[48];
        RANDOM.nextBytes(source);
        DestroyableKey k = new DestroyableKey(source, 8, 32, "AES");
        assertThat(k.allBytesZero()).isFalse();
        assertThat(k.getEncoded()).hasSize(32).isEqualTo(java.util.Arrays.copyOfRange(source, 8, 40));
        k.destroy();
        assertThat(k.isDestroyed()).isTrue();
        assertThat(k.allBytesZero()).isTrue();
        assertThatThrownBy(k::getEncoded).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void xtsRefusesUseAfterDestroy() {
        byte[] key = new byte[64];
        RANDOM.nextBytes(key);
        AesXts xts = new AesXts(key);
        byte[] buf = new byte[32];
        xts.encrypt(new byte[16], 0, buf, 0, buf, 0, 32);
        xts.destroy();
        assertThat(xts.isDestroyed()).isTrue();
        assertThatThrownBy(() -> xts.encrypt(new byte[16], 0, buf, 0, buf, 0, 32))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> xts.decrypt(new byte[16], 0, buf, 0, buf, 0, 32))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> xts.tinyKeystream(new byte[16], 0, buf, 0))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void sivRefusesUseAfterDestroy() {
        byte[] key = new byte[64];
        RANDOM.nextBytes(key);
        AesSiv siv = new AesSiv(key);
        byte[] c = siv.encrypt(new byte[3]);
        siv.destroy();
        assertThat(siv.isDestroyed()).isTrue();
        assertThatThrownBy(() -> siv.encrypt(new byte[3])).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> siv.decrypt(c)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void constructorsCopyTheirKey() {
        byte[] key = new byte[64];
        RANDOM.nextBytes(key);
        byte[] p = new byte[32];
        AesSiv siv = new AesSiv(key);
        AesXts xts = new AesXts(key);
        byte[] sivBefore = siv.encrypt(p);
        byte[] xtsBefore = new byte[32];
        xts.encrypt(new byte[16], 0, p, 0, xtsBefore, 0, 32);
        java.util.Arrays.fill(key, (byte) 0);
        byte[] xtsAfter = new byte[32];
        xts.encrypt(new byte[16], 0, p, 0, xtsAfter, 0, 32);
        assertThat(siv.encrypt(p)).isEqualTo(sivBefore);
        assertThat(xtsAfter).isEqualTo(xtsBefore);
    }
}
