package dev.coffer.core.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AesXts;
import dev.coffer.core.crypto.DestroyableKey;
import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.content.UnitCryptor;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.security.auth.Destroyable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * After a vault is locked (its file system closed), no key bytes remain in the objects that held
 * them: every key holder reachable while files were open (master key, AES-SIV, each open file's
 * XTS and HMAC keys, every {@link DestroyableKey}) is destroyed, its byte arrays are all zero, and
 * it no longer references a JCE {@link javax.crypto.Cipher} or {@link javax.crypto.Mac} (whose
 * expanded keys cannot be wiped, so they must be dropped). Found by reflection on the fields.
 */
class KeysAfterLockTest {
    private static final List<Class<?>> KEY_HOLDERS = List.of(MasterKey.class, DestroyableKey.class, AesSiv.class, AesXts.class,
            UnitCryptor.class);

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(CipherCombo.class)
    void closingTheFileSystemLeavesNoKeyBytesBehind(CipherCombo combo) throws IOException {
        CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("vault"), "lock test".toCharArray(),
                new VaultCreationOptions(combo, 1 << 14, 220));
        Files.createDirectories(fs.getPath("/folder/sub"));
        Files.write(fs.getPath("/folder/big.bin"), new byte[3 * 4096 + 100]);
        Files.writeString(fs.getPath("/small.txt"), "hello");
        Files.writeString(fs.getPath("/" + "long name ".repeat(20)), "long");
        Files.createSymbolicLink(fs.getPath("/link"), fs.getPath("small.txt"));
        Files.move(fs.getPath("/small.txt"), fs.getPath("/folder/moved.txt"));
        try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
            assertThat(s.count()).isEqualTo(7);
        }
        // Files left open at lock time: closing the file system must close them and destroy their keys.
        FileChannel writing = FileChannel.open(fs.getPath("/folder/open.bin"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        writing.write(ByteBuffer.wrap(new byte[5000]));
        FileChannel reading = FileChannel.open(fs.getPath("/folder/big.bin"), StandardOpenOption.READ);
        reading.read(ByteBuffer.allocate(100));

        List<ObjectGraph.Node> holders = keyHolders(ObjectGraph.reachableFrom(fs));
        assertThat(holders).as("key holders found while unlocked")
                .anyMatch(n -> n.object() instanceof MasterKey)
                .anyMatch(n -> n.object() instanceof AesSiv)
                .anyMatch(n -> n.object() instanceof UnitCryptor)
                .anyMatch(n -> n.object() instanceof AesXts)
                .anyMatch(n -> n.object() instanceof DestroyableKey);
        assertThat(problems(holders)).as("before locking every holder is live").isNotEmpty();

        fs.close();

        assertThat(problems(holders)).as("key material left after locking").isEmpty();
        assertThat(problems(keyHolders(ObjectGraph.reachableFrom(fs)))).isEmpty();
        assertThat(jceObjects(ObjectGraph.reachableFrom(fs))).as("JCE objects still reachable from the locked file system").isEmpty();
        assertThat(writing.isOpen()).isFalse();
        assertThat(reading.isOpen()).isFalse();
    }

    @Test
    void closingAnUnlockedVaultZeroesItsMasterKey() throws IOException {
        Path vault = tmp.resolve("v2");
        CofferFileSystems.create(vault, "p".toCharArray(), new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220)).close();
        UnlockedVault unlocked = VaultAccess.unlock(vault, "p".toCharArray());
        MasterKey key = unlocked.masterKey();
        assertThat(problems(keyHolders(ObjectGraph.reachableFrom(unlocked)))).isNotEmpty();
        unlocked.close();
        assertThat(problems(keyHolders(ObjectGraph.reachableFrom(key)))).isEmpty();
    }

    private static List<ObjectGraph.Node> keyHolders(List<ObjectGraph.Node> nodes) {
        return nodes.stream().filter(n -> KEY_HOLDERS.stream().anyMatch(c -> c.isInstance(n.object()))).toList();
    }

    private static List<ObjectGraph.Node> jceObjects(List<ObjectGraph.Node> nodes) {
        return nodes.stream().filter(n -> isJce(n.object())).toList();
    }

    private static boolean isJce(Object o) {
        return o instanceof javax.crypto.Cipher || o instanceof javax.crypto.Mac || o instanceof org.bouncycastle.crypto.Mac
                || o instanceof org.bouncycastle.crypto.BlockCipher;
    }

    /** What is still secret about each holder: not destroyed, a non-zero byte array, or a JCE object in a field. */
    private static List<String> problems(List<ObjectGraph.Node> holders) {
        List<String> problems = new ArrayList<>();
        for (ObjectGraph.Node n : holders) {
            Object o = n.object();
            if (o instanceof Destroyable d && !d.isDestroyed()) {
                problems.add(n.path() + " is not destroyed");
            }
            for (Class<?> c = o.getClass(); c != null && c.getName().startsWith("dev.coffer."); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        continue;
                    }
                    Object v = ObjectGraph.read(f, o);
                    if (v instanceof byte[] b && !allZero(b)) {
                        problems.add(n.path() + "." + f.getName() + " holds non-zero bytes");
                    }
                    if (isJce(v)) {
                        problems.add(n.path() + "." + f.getName() + " still references " + v.getClass().getName());
                    }
                }
            }
        }
        return problems;
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
