package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.fuzz.CleanFailure;
import dev.coffer.core.fuzz.Mutations;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing of file headers and content (spec 5): mutated and random headers, mutated small files
 * (as dirid.c9r and symlink.c9r are read), and mutated ciphertext of a real file read through the
 * vault's file system. Only {@link AuthenticationFailedException} (or an {@link IOException}
 * through the file system) may come out. In {@code SIV_XTSHMAC} anything that does open must be
 * the original: a mutation is never read back as other bytes.
 */
class ContentFuzzTest {
    private static final byte[] CLEARTEXT = new byte[3 * SectorLayout.SECTOR + 40];
    private static ContentKeys authenticated;
    private static ContentKeys lengthPreserving;
    private static byte[] validHeader;
    private static FileSystem memory;
    private static CofferFileSystem vault;
    private static Path victimCiphertext;
    private static byte[] victimOriginal;

    @BeforeContainer
    static void keys() throws IOException {
        byte[] sivKey = new byte[64];
        new SecureRandom().nextBytes(sivKey);
        new Random(1).nextBytes(CLEARTEXT);
        AesSiv siv = new AesSiv(sivKey);
        authenticated = new ContentKeys(new FileHeaders(siv, new SecureRandom()), true);
        lengthPreserving = new ContentKeys(new FileHeaders(siv, new SecureRandom()), false);
        validHeader = Arrays.copyOf(authenticated.encryptSmall(CLEARTEXT), SectorLayout.HEADER);

        memory = Jimfs.newFileSystem(Configuration.unix());
        vault = CofferFileSystems.create(memory.getPath("/vault"), "content fuzz".toCharArray(),
                new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220));
        Files.write(vault.getPath("/victim.bin"), CLEARTEXT);
        Files.writeString(vault.getPath("/bystander.txt"), "still here");
        try (Stream<Path> s = Files.walk(memory.getPath("/vault/d"))) {
            // The victim is the one file of its size: header + 4 units of 4096 + 32 (the last merged with 40 bytes).
            victimCiphertext = s.filter(p -> p.toString().endsWith(".c9r") && sizeOf(p) > 10_000).findFirst().orElseThrow();
        }
        victimOriginal = Files.readAllBytes(victimCiphertext);
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    @AfterContainer
    static void close() throws IOException {
        vault.close();
        memory.close();
    }

    @Property
    void headersOpenOnlyIfAuthentic(@ForAll("headers") byte[] header) {
        Throwable t = CleanFailure.expect(header, () -> authenticated.open(header).destroy(), AuthenticationFailedException.class);
        if (t == null) {
            assertThat(header).isEqualTo(validHeader);
        }
    }

    @Property
    void authenticatedSmallFilesDecryptOnlyToTheOriginal(@ForAll("smallFiles") byte[][] originalAndMutant) {
        byte[] mutant = originalAndMutant[1];
        byte[][] out = new byte[1][];
        Throwable t = CleanFailure.expect(mutant, () -> out[0] = authenticated.decryptSmall(mutant), AuthenticationFailedException.class);
        // An empty ciphertext is an empty file: spec 1 does not protect against truncation to zero.
        if (t == null && mutant.length > 0) {
            assertThat(out[0]).as("decrypted a mutant").isEqualTo(Arrays.copyOf(CLEARTEXT, out[0].length));
            assertThat(mutant).isEqualTo(originalAndMutant[0]);
        }
    }

    @Property
    void lengthPreservingSmallFilesFailCleanly(@ForAll("smallFiles") byte[][] originalAndMutant) {
        byte[] mutant = originalAndMutant[1];
        CleanFailure.expect(mutant, () -> lengthPreserving.decryptSmall(mutant), AuthenticationFailedException.class);
    }

    @Property
    void mutatedCiphertextReadsBackAsTheOriginalOrFails(@ForAll("victims") byte[] mutant) throws IOException {
        Files.write(victimCiphertext, mutant);
        byte[][] read = new byte[1][];
        Throwable t = CleanFailure.expect(mutant, () -> read[0] = Files.readAllBytes(vault.getPath("/victim.bin")), IOException.class);
        if (t == null && mutant.length > 0) {
            assertThat(read[0]).as("read a mutated file").isEqualTo(CLEARTEXT);
        }
        assertThat(Files.readString(vault.getPath("/bystander.txt"))).isEqualTo("still here");
        Files.write(victimCiphertext, victimOriginal);
    }

    @Provide
    Arbitrary<byte[]> headers() {
        return Arbitraries.oneOf(Mutations.around(validHeader), Mutations.garbage(100));
    }

    @Provide
    Arbitrary<byte[][]> smallFiles() {
        return Arbitraries.integers().between(0, CLEARTEXT.length).flatMap(n -> {
            byte[] original = authenticated.encryptSmall(Arrays.copyOf(CLEARTEXT, n));
            return Mutations.around(original).map(m -> new byte[][] {original, m});
        });
    }

    @Provide
    Arbitrary<byte[]> victims() {
        return Mutations.mutantsOf(victimOriginal);
    }
}
