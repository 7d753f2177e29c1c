package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.crypto.AesSiv;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pool of cryptors in {@link ContentKeys}: a cryptor re-keyed for another file works exactly like
 * one built for it, a returned cryptor refuses use, the pool stays bounded, and destroying the keys
 * (a lock) destroys every pooled cryptor and every one returned later.
 */
class CryptorPoolTest {
    private final Random random = new Random(7);

    private static ContentKeys keys(boolean authenticated) {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), authenticated);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aReusedCryptorEncryptsAndDecryptsLikeAFreshOne(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        FileHeaders headers = new FileHeaders(new AesSiv(new byte[64]), new SecureRandom());
        UnitCryptor previous = null;
        for (int file = 0; file < 5; file++) {
            byte[] secret = new byte[FileHeaders.SECRET_LENGTH];
            random.nextBytes(secret);
            UnitCryptor pooled = keys.open(headers.seal(secret));
            if (previous != null) {
                assertThat(pooled).as("the released cryptor is reused").isSameAs(previous);
            }
            UnitCryptor fresh = new UnitCryptor(secret, authenticated, UnitCryptor.newNonceSource());
            for (int len : new int[] {1, 15, 16, 17, 4096, 4111}) {
                byte[] plain = new byte[len];
                random.nextBytes(plain);
                byte[] byPooled = new byte[len + pooled.overhead()];
                byte[] byFresh = new byte[len + fresh.overhead()];
                pooled.encrypt(3, true, plain, 0, len, byPooled, 0);
                fresh.encrypt(3, true, plain, 0, len, byFresh, 0);
                if (!authenticated) {
                    assertThat(byPooled).isEqualTo(byFresh); // deterministic: same key, same bytes
                }
                byte[] back = new byte[len];
                fresh.decrypt(3, true, byPooled, 0, byPooled.length, back, 0);
                assertThat(back).isEqualTo(plain);
                pooled.decrypt(3, true, byFresh, 0, byFresh.length, back, 0);
                assertThat(back).isEqualTo(plain);
            }
            fresh.destroy();
            keys.release(pooled);
            previous = pooled;
            assertThatThrownBy(() -> previous_encrypt(pooled)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool");
        }
    }

    /** Handed back twice, a cryptor would be lent to two files at once: refused, the pool unchanged. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCryptorHandedBackTwiceIsRefused(boolean authenticated) {
        ContentKeys keys = keys(authenticated);
        UnitCryptor c = keys.newFile().cryptor();
        keys.release(c);
        int idle = keys.idleCount();
        assertThatThrownBy(() -> keys.release(c)).isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
        assertThat(keys.idleCount()).isEqualTo(idle);
        assertThat(keys.newFile().cryptor()).isSameAs(c);
        assertThat(keys.newFile().cryptor()).as("not queued a second time").isNotSameAs(c);
    }

    /** A parked cryptor keeps none of the last file's cleartext in its XTS scratch. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aParkedCryptorKeepsNoCleartext(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        ContentKeys.Sealed sealed = keys.newFile();
        UnitCryptor c = sealed.cryptor();
        byte[] plain = new byte[4096];
        java.util.Arrays.fill(plain, (byte) 0x5a);
        byte[] sealedUnit = new byte[4096 + c.overhead()];
        c.encrypt(0, true, plain, 0, plain.length, sealedUnit, 0);
        byte[] back = new byte[4096 + 7];
        c.decrypt(0, true, sealedUnit, 0, sealedUnit.length, back, 7); // at an offset: through the scratch
        keys.release(c);
        java.lang.reflect.Field xtsField = UnitCryptor.class.getDeclaredField("xts");
        xtsField.setAccessible(true);
        Object xts = xtsField.get(c);
        for (String name : new String[] {"masks", "work", "result"}) {
            java.lang.reflect.Field f = xts.getClass().getDeclaredField(name);
            f.setAccessible(true);
            assertThat((byte[]) f.get(xts)).as(name).containsOnly((byte) 0);
        }
    }

    private static void previous_encrypt(UnitCryptor c) {
        c.encrypt(0, true, new byte[16], 0, 16, new byte[48], 0);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void thePoolIsBoundedAndALockDestroysEveryCryptor(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        List<UnitCryptor> lent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            lent.add(keys.newFile().cryptor());
        }
        for (UnitCryptor c : lent.subList(0, 150)) {
            keys.release(c);
        }
        int idle = keys.idleCount();
        assertThat(idle).isPositive().isLessThan(150);
        assertThat(lent.stream().filter(UnitCryptor::isDestroyed).count()).as("the rest are destroyed").isEqualTo(150 - idle);

        keys.destroy();
        assertThat(keys.idleCount()).isZero();
        assertThat(lent.subList(0, 150)).allMatch(UnitCryptor::isDestroyed);
        // Still lent at the lock: destroyed when returned, never pooled again.
        for (UnitCryptor c : lent.subList(150, 200)) {
            assertThat(c.isDestroyed()).isFalse();
            keys.release(c);
            assertThat(c.isDestroyed()).isTrue();
        }
        assertThat(keys.idleCount()).isZero();
        assertThatThrownBy(keys::newFile).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void smallFilesRoundTripThroughThePool(boolean authenticated) throws Exception {
        ContentKeys keys = keys(authenticated);
        for (int len : new int[] {1, 16, 4095, 4096, 4097, 12 * 1024, 40_000}) {
            byte[] plain = new byte[len];
            random.nextBytes(plain);
            byte[] ct = keys.encryptSmall(plain);
            assertThat(keys.decryptSmall(ct)).isEqualTo(plain);
        }
        assertThat(keys.idleCount()).as("one cryptor served every file").isEqualTo(1);
    }
}
