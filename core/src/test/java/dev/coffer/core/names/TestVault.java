package dev.coffer.core.names;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.FileHeaders;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.crypto.KeyWrap;
import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.crypto.Scrypt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A vault's names layer for tests: unlocks a test vault (or takes a key), and offers the cleartext
 * comparer the file-system layer would supply, plus snapshots of the files on disk.
 */
final class TestVault {
    static final String PASSPHRASE = "correct horse battery staple 1";

    final AesSiv siv;
    final NameCipher names;
    final LongNames longNames;
    final PathMapper mapper;
    final DirectoryLister lister;
    final ContentKeys content;

    TestVault(byte[] sivKey, Path dataDir, int threshold, boolean authenticated) {
        this.siv = new AesSiv(sivKey);
        this.names = new NameCipher(siv);
        this.longNames = new LongNames(threshold);
        this.mapper = new PathMapper(dataDir, names, longNames);
        this.lister = new DirectoryLister(names);
        this.content = new ContentKeys(new FileHeaders(siv, new SecureRandom()), authenticated);
    }

    /** Unlocks a test vault with {@link #PASSPHRASE}: scrypt, key unwrap, HKDF (spec 2); reads threshold and combo from vault.coffer. */
    static TestVault unlock(Path vault) throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode mk = json.readTree(vault.resolve("masterkey.coffer").toFile());
        byte[] kek = Scrypt.derive(PASSPHRASE.getBytes(StandardCharsets.UTF_8), Base64.getDecoder().decode(mk.get("scryptSalt").asText()),
                mk.get("scryptCostParam").asInt(), mk.get("scryptBlockSize").asInt(), mk.get("scryptParallelism").asInt(), 32);
        MasterKey m = MasterKey.of(KeyWrap.unwrap(kek, Base64.getDecoder().decode(mk.get("masterKey").asText())));
        String jwt = Files.readString(vault.resolve("vault.coffer")).strip();
        JsonNode claims = json.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
        return new TestVault(m.derive("coffer/siv", 64), vault.resolve("d"), claims.get("shorteningThreshold").asInt(),
                claims.get("cipherCombo").asText().equals("SIV_XTSHMAC"));
    }

    /** The comparer the file-system layer supplies: whole-file decryption of both payloads. */
    ConflictResolver.CleartextComparer comparer() {
        return (a, b) -> Arrays.equals(decrypt(a), decrypt(b));
    }

    byte[] decrypt(Path file) throws IOException {
        try {
            return content.decryptSmall(Files.readAllBytes(file));
        } catch (AuthenticationFailedException e) {
            throw new IOException("cannot decrypt " + file, e);
        }
    }

    ConflictResolver resolver(boolean readOnly) {
        return new ConflictResolver(mapper, lister, comparer(), readOnly);
    }

    /** Every file and folder below {@code root}: relative path to SHA-256 of the content, or "dir". */
    static Map<String, String> snapshot(Path root) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(p -> !p.equals(root)).forEach(p -> out.put(root.relativize(p).toString().replace('\\', '/'),
                    Files.isDirectory(p) ? "dir" : sha256(p)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static String sha256(Path file) {
        try {
            return sha256(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies a (read-only) checked-in tree to {@code target} with default, writable permissions. */
    static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
