package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.fuzz.CleanFailure;
import dev.coffer.core.fuzz.Mutations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing of the root files (spec 2.1, 2.2): masterkey.coffer JSON, the vault.coffer JWT (header,
 * payload, signature), and opening a vault whose root files are hostile, on an in-memory file
 * system. Only {@link VaultFormatException}, {@link InvalidPassphraseException} or another
 * {@link IOException} may come out, within the time limit, and scrypt is only ever reached with
 * parameters inside the limits of spec 2.1 (the key derivation here is a guard that fails the
 * test otherwise, and is cheap so that many inputs run).
 */
class RootFilesFuzzTest {
    private static final byte[] PASSPHRASE = "fuzzing passphrase".getBytes(StandardCharsets.UTF_8);
    private static final AtomicInteger KDF_CALLS = new AtomicInteger();
    /** Fails the test if scrypt would run with parameters outside spec 2.1; otherwise a cheap stand-in. */
    static final Kdf GUARDED = (passphrase, salt, params) -> {
        KDF_CALLS.incrementAndGet();
        if (params.n() < ScryptParams.MIN_N || Long.bitCount(params.n()) != 1 || params.r() < 1 || params.p() < 1
                || params.n() * params.r() > ScryptParams.MAX_NR || params.n() * params.r() * params.p() > ScryptParams.MAX_NRP
                || salt.length < 8 || salt.length > 64) {
            throw new AssertionError("scrypt reached with unchecked parameters " + params + ", salt " + salt.length);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(salt, "HmacSHA256"));
            return mac.doFinal(passphrase);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    };

    private static FileSystem memory;
    private static Path seedVault;
    private static byte[] validMasterkey;
    private static byte[] validVaultConfig;
    private static byte[] configKey;
    private static String validPayload;

    @BeforeContainer
    static void createSeedVault() throws IOException {
        memory = Jimfs.newFileSystem(Configuration.unix());
        seedVault = memory.getPath("/seed");
        VaultOperations ops = new VaultOperations(GUARDED, new SecureRandom());
        try (UnlockedVault v = ops.create(seedVault, PASSPHRASE, new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220))) {
            configKey = v.masterKey().derive(VaultConfigJwt.CONFIG_KEY_INFO, VaultConfigJwt.CONFIG_KEY_LENGTH);
        }
        validMasterkey = Files.readAllBytes(seedVault.resolve(VaultFiles.MASTERKEY));
        validVaultConfig = Files.readAllBytes(seedVault.resolve(VaultFiles.VAULT_CONFIG));
        validPayload = new String(java.util.Base64.getUrlDecoder().decode(
                new String(validVaultConfig, StandardCharsets.US_ASCII).strip().split("\\.")[1]), StandardCharsets.UTF_8);
    }

    @AfterContainer
    static void closeMemory() throws IOException {
        memory.close();
    }

    @Property
    void masterkeyFileParsingFailsCleanly(@ForAll("masterkeyFiles") byte[] input) {
        CleanFailure.expect(input, () -> MasterkeyFile.parse(input, "masterkey.coffer"), VaultFormatException.class);
    }

    @Property
    void unlockingWithAHostileMasterkeyFileFailsCleanly(@ForAll("masterkeyFiles") byte[] input) throws IOException {
        Path vault = vaultWith(input, validVaultConfig);
        Throwable t = CleanFailure.expect(input, () -> new VaultOpener(GUARDED).open(vault, PASSPHRASE).key().destroy(), IOException.class);
        Statistics.collect(outcome(t));
    }

    @Property
    void vaultConfigParsingAndVerifyingFailsCleanly(@ForAll("tokens") byte[] input) {
        MasterKey key = MasterKey.generate(new SecureRandom());
        CleanFailure.expect(input, () -> VaultConfigJwt.parse(input).verifiedConfig(key), VaultFormatException.class);
    }

    @Property
    void correctlySignedHostileHeadersAndClaimsFailCleanly(@ForAll("headers") byte[] header, @ForAll("payloads") byte[] payload) {
        byte[] token = JwsCompact.signHs256(header, payload, configKey).compact().getBytes(StandardCharsets.US_ASCII);
        CleanFailure.expect(token, () -> VaultConfigJwt.parse(token).masterkeyFileName(), VaultFormatException.class);
        CleanFailure.expect(payload, () -> VaultClaims.read(payload, "vault.coffer"), VaultFormatException.class);
    }

    @Property
    void unlockingWithAHostileVaultConfigFailsCleanly(@ForAll("tokens") byte[] input) throws IOException {
        Path vault = vaultWith(validMasterkey, input);
        Throwable t = CleanFailure.expect(input, () -> new VaultOpener(GUARDED).open(vault, PASSPHRASE).key().destroy(), IOException.class);
        Statistics.collect(outcome(t));
    }

    @Example
    void hugeScryptParametersAreRefusedWithoutAnyKeyDerivation() throws Exception {
        int before = KDF_CALLS.get();
        String[][] params = {{"4611686018427387904", "8", "1"}, {"1073741824", "1", "1"}, {"16384", "9223372036854775807", "1"},
            {"16384", "8", "9223372036854775807"}, {"2097152", "8", "1"}, {"9223372036854775807", "1", "1"}};
        JsonNode valid = new ObjectMapper().readTree(validMasterkey);
        for (String[] p : params) {
            String json = "{\"version\":1,\"scryptSalt\":\"" + valid.get("scryptSalt").asText() + "\",\"scryptCostParam\":" + p[0]
                    + ",\"scryptBlockSize\":" + p[1] + ",\"scryptParallelism\":" + p[2] + ",\"masterKey\":\""
                    + valid.get("masterKey").asText() + "\"}";
            Path vault = vaultWith(json.getBytes(StandardCharsets.US_ASCII), validVaultConfig);
            long start = System.nanoTime();
            Throwable t = CleanFailure.expect(json, () -> new VaultOpener(Kdf.SCRYPT).open(vault, PASSPHRASE), VaultFormatException.class);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(t).as("N=%s r=%s p=%s", (Object[]) p).isInstanceOf(VaultFormatException.class);
            assertThat(t.getMessage()).contains("scrypt");
            assertThat(millis).as("refused cheaply").isLessThan(1_000);
        }
        assertThat(KDF_CALLS.get()).isEqualTo(before);
    }

    @Example
    void theSeedVaultItselfOpens() throws IOException {
        new VaultOpener(GUARDED).open(vaultWith(validMasterkey, validVaultConfig), PASSPHRASE).key().destroy();
    }

    @Provide
    Arbitrary<byte[]> masterkeyFiles() throws IOException {
        JsonNode valid = new ObjectMapper().readTree(validMasterkey);
        Map<String, String> fields = new LinkedHashMap<>();
        valid.fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue().toString()));
        return Arbitraries.oneOf(Mutations.jsonObject(fields), Mutations.around(validMasterkey));
    }

    @Provide
    Arbitrary<byte[]> tokens() {
        Arbitrary<byte[]> resigned = Combinators.combine(headers(), payloads()).as(
                (h, p) -> JwsCompact.signHs256(h, p, configKey).compact().getBytes(StandardCharsets.US_ASCII));
        Arbitrary<byte[]> segments = Combinators.combine(headers(), payloads(), Mutations.garbage(40)).as(
                (h, p, s) -> (JwsCompact.encode(h) + "." + JwsCompact.encode(p) + "." + JwsCompact.encode(s)).getBytes(StandardCharsets.US_ASCII));
        return Arbitraries.oneOf(Mutations.around(validVaultConfig), resigned, segments,
                Arbitraries.of("", ".", "..", "...", "a.b.c", "a.b", " \t\n", "x.y.z.w", "====.====.====")
                        .map(s -> s.getBytes(StandardCharsets.US_ASCII)));
    }

    @Provide
    Arbitrary<byte[]> headers() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("alg", "\"HS256\"");
        fields.put("typ", "\"JWT\"");
        fields.put("kid", "\"masterkeyfile:masterkey.coffer\"");
        Arbitrary<byte[]> kids = Arbitraries.of("masterkeyfile:", "masterkeyfile:.", "masterkeyfile:..", "masterkeyfile:../etc/passwd",
                "masterkeyfile:/etc/passwd", "masterkeyfile:vault.coffer", "masterkeyfile:d", "masterkeyfile:a/b", "masterkeyfile:\u0000",
                "masterkeyfile:" + "m".repeat(300), "masterkeyfile:masterkey.coffer.missing", "MASTERKEYFILE:masterkey.coffer",
                "masterkeyfile:C:\\x", "masterkeyfile:nul", "file:masterkey.coffer")
                .map(k -> ("{\"alg\":\"HS256\",\"kid\":" + Mutations.jsonString(k) + "}").getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> algs = Arbitraries.of("none", "None", "HS512", "RS256", "hs256", "HS256 ", "")
                .map(a -> ("{\"alg\":\"" + a + "\",\"kid\":\"masterkeyfile:masterkey.coffer\"}").getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Mutations.jsonObject(fields)),
                net.jqwik.api.Tuple.of(1, kids),
                net.jqwik.api.Tuple.of(1, algs));
    }

    @Provide
    Arbitrary<byte[]> payloads() {
        Map<String, String> fields = new LinkedHashMap<>();
        try {
            new ObjectMapper().readTree(validPayload).fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue().toString()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Mutations.jsonObject(fields);
    }

    /** How far an input got, for the statistics jqwik reports (-Djqwik.reporting.onlyfailures=false). */
    static String outcome(Throwable t) {
        if (t == null) {
            return "opened";
        }
        String m = t.getMessage() == null ? "" : t.getMessage();
        return t.getClass().getSimpleName() + (m.contains("scrypt") ? " (scrypt limits)" : m.contains("signature") ? " (signature)" : "");
    }

    /** The vault folder in memory, holding exactly these two root files. */
    private static Path vaultWith(byte[] masterkey, byte[] vaultConfig) throws IOException {
        Path dir = memory.getPath("/v");
        Files.createDirectories(dir);
        Files.write(dir.resolve(VaultFiles.MASTERKEY), masterkey);
        Files.write(dir.resolve(VaultFiles.VAULT_CONFIG), vaultConfig);
        return dir;
    }
}
