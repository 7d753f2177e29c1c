package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.crypto.MasterKey;
import dev.coffer.core.fuzz.CleanFailure;
import dev.coffer.core.fuzz.Mutations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing of recovery-key words (spec 2.4): typed text that is almost the right key (words
 * dropped, swapped, cut, misspelt, re-cased, joined with odd Unicode whitespace) or plain garbage.
 * Parsing fails only with {@link InvalidRecoveryKeyException}, never echoes a word in its message,
 * and a reset with such words fails cleanly and leaves the vault's masterkey file unchanged.
 */
class RecoveryKeyFuzzTest {
    private static final String[] SEPARATORS = {" ", "  ", "\t", "\n", "\r\n", "\u00A0", "\u2003", "\u3000", "\u200B", "", "-", ","};
    private static final byte[] PASSPHRASE = "recovery fuzz".getBytes(StandardCharsets.UTF_8);
    private static List<String> words;
    private static FileSystem memory;
    private static Path vault;
    private static byte[] masterkeyBefore;

    @BeforeContainer
    static void createVault() throws IOException {
        memory = Jimfs.newFileSystem(Configuration.unix());
        vault = memory.getPath("/vault");
        VaultOperations ops = new VaultOperations(RootFilesFuzzTest.GUARDED, new SecureRandom());
        try (UnlockedVault v = ops.create(vault, PASSPHRASE, new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220))) {
            words = RecoveryKey.words(v.masterKey(), Bip39WordList.english());
        }
        masterkeyBefore = java.nio.file.Files.readAllBytes(vault.resolve(VaultFiles.MASTERKEY));
    }

    @AfterContainer
    static void closeMemory() throws IOException {
        memory.close();
    }

    @Property
    void parsingFailsCleanlyAndNeverEchoesAWord(@ForAll("typed") String typed) {
        Throwable t = CleanFailure.expect(typed, () -> RecoveryKey.parse(typed, Bip39WordList.english()).destroy(),
                InvalidRecoveryKeyException.class);
        if (t != null) {
            // Every message is one of these templates: positions and counts, never a word.
            assertThat(t.getMessage()).as("message for %s", CleanFailure.show(typed)).matches(
                    "a recovery key has 48 words, this one has \\d+"
                    + "|word \\d+ of the recovery key is not in the word list \\(type the whole word, or at least its first four letters\\)"
                    + "|recovery key checksum does not match: a word is wrong or out of order");
        }
    }

    @Property
    void resettingWithHostileWordsFailsCleanlyAndChangesNothing(@ForAll("typed") String typed) throws IOException {
        VaultOperations ops = new VaultOperations(RootFilesFuzzTest.GUARDED, new SecureRandom());
        Throwable t = CleanFailure.expect(typed, () -> ops.resetPassphrase(vault, typed, "new".getBytes(StandardCharsets.UTF_8)),
                IOException.class);
        if (t != null) {
            assertThat(java.nio.file.Files.readAllBytes(vault.resolve(VaultFiles.MASTERKEY))).isEqualTo(masterkeyBefore);
        } else {
            // Only the right words succeed; restore the passphrase for the next input.
            assertThat(RecoveryKey.parse(typed, Bip39WordList.english()).sameKeyAs(unlock("new"))).isTrue();
            java.nio.file.Files.write(vault.resolve(VaultFiles.MASTERKEY), masterkeyBefore);
        }
    }

    private static MasterKey unlock(String passphrase) throws IOException {
        return new VaultOpener(RootFilesFuzzTest.GUARDED).open(vault, passphrase.getBytes(StandardCharsets.UTF_8)).key();
    }

    @Provide
    Arbitrary<String> typed() {
        Arbitrary<String> nearMisses = Arbitraries.longs().map(RecoveryKeyFuzzTest::nearMiss);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, nearMisses),
                net.jqwik.api.Tuple.of(2, Mutations.aroundText(String.join(" ", words))),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(2000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("", " ", "\u0000", "abandon ".repeat(48), "zoo ".repeat(48),
                        "abandon ".repeat(100_000), " ".repeat(1_000_000), "\uD83D\uDE00 ".repeat(48), "aban ".repeat(48))));
    }

    /** The right words with a few edits driven by {@code seed}. */
    private static String nearMiss(long seed) {
        Random r = new Random(seed);
        List<String> w = new ArrayList<>(words);
        int edits = r.nextInt(4);
        for (int i = 0; i < edits; i++) {
            int at = r.nextInt(w.size());
            switch (r.nextInt(8)) {
                case 0 -> w.remove(at);
                case 1 -> w.add(at, w.get(r.nextInt(w.size())));
                case 2 -> java.util.Collections.swap(w, at, r.nextInt(w.size()));
                case 3 -> w.set(at, w.get(at).substring(0, Math.min(w.get(at).length(), r.nextInt(6))));
                case 4 -> w.set(at, w.get(at).toUpperCase(java.util.Locale.ROOT));
                case 5 -> w.set(at, w.get(at) + (char) (0x20 + r.nextInt(0x3000)));
                case 6 -> w.set(at, new StringBuilder(w.get(at)).reverse().toString());
                default -> w.set(at, Bip39WordList.english().word(r.nextInt(Bip39WordList.SIZE)));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < w.size(); i++) {
            sb.append(i == 0 ? "" : SEPARATORS[r.nextInt(r.nextInt(5) == 0 ? SEPARATORS.length : 1)]).append(w.get(i));
        }
        return sb.toString();
    }
}
