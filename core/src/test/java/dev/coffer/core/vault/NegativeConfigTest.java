package dev.coffer.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vault of testdata/negative-config is refused as the reference refuses it (spec 2.1, 2.2). */
class NegativeConfigTest {
    private static final String REFERENCE_PREFIX = "  coffer_ref: VaultError: ";
    private static final byte[] PASSPHRASE = TestData.PASSPHRASE.getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path temp;

    static Stream<Arguments> cases() throws IOException {
        List<String> lines = Files.readAllLines(TestData.testdata().resolve("negative-config/EXPECTED.txt"));
        List<Arguments> cases = new ArrayList<>();
        String name = null;
        for (String line : lines) {
            if (!line.isEmpty() && !line.startsWith(" ") && !line.contains(":") && !line.startsWith("Every")) {
                name = line;
            } else if (line.startsWith(REFERENCE_PREFIX)) {
                cases.add(Arguments.of(name, line.substring(REFERENCE_PREFIX.length())));
            }
        }
        return cases.stream();
    }

    @Test
    void expectedTxtListsEveryCaseFolder() throws IOException {
        List<String> folders;
        try (Stream<Path> list = Files.list(TestData.testdata().resolve("negative-config"))) {
            folders = list.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(cases().map(a -> (String) a.get()[0]).sorted().toList()).isEqualTo(folders).hasSize(33);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isRefusedWithTheReferenceMessageAndScryptOnlyWhenNeeded(String name, String reference) throws IOException {
        Path vault = TestData.copyVault("negative-config/" + name, temp);
        CountingKdf kdf = new CountingKdf();
        VaultOperations operations = new VaultOperations(kdf, new SecureRandom());

        assertThatThrownBy(() -> operations.unlock(vault, PASSPHRASE))
                .isExactlyInstanceOf(VaultFormatException.class)
                .satisfies(e -> assertLikeReference(e.getMessage(), reference));
        assertThat(kdf.calls()).as("scrypt runs").isEqualTo(expectedKdfCalls(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void thePublicFacadeRefusesItTooAndChangesNothing(String name, String reference) throws IOException {
        Path vault = TestData.copyVault("negative-config/" + name, temp);
        Path original = TestData.testdata().resolve("negative-config/" + name);

        assertThatThrownBy(() -> VaultAccess.unlock(vault, TestData.PASSPHRASE.toCharArray()))
                .isExactlyInstanceOf(VaultFormatException.class)
                .satisfies(e -> assertLikeReference(e.getMessage(), reference));
        assertThatThrownBy(() -> VaultAccess.changePassphrase(vault, TestData.PASSPHRASE.toCharArray(), "new".toCharArray()))
                .isExactlyInstanceOf(VaultFormatException.class);
        assertThat(TreeSnapshot.of(vault)).isEqualTo(TreeSnapshot.of(original));
    }

    /** Equal, except the parser's own words inside "malformed JSON (...)": Python's differ from Jackson's. */
    private static void assertLikeReference(String message, String reference) {
        String marker = "malformed JSON (";
        int detail = reference.indexOf(marker);
        if (detail < 0) {
            assertThat(message).isEqualTo(reference);
        } else {
            assertThat(message).startsWith(reference.substring(0, detail + marker.length())).endsWith(")");
        }
    }

    /** Parameter and header problems are refused before scrypt; a conflict copy costs one more. */
    private static int expectedKdfCalls(String name) {
        if (name.startsWith("mk-") || name.startsWith("jwt-alg-") || name.startsWith("jwt-kid-")) {
            return 0;
        }
        return name.equals("copy-masterkey-other-key") ? 2 : 1;
    }
}
