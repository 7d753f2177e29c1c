package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.content.DamagedFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every expectation of shared/testdata/README.md for the damaged vaults, through the file system. */
class DamagedVaultsTest {
    @TempDir
    Path tmp;

    private static List<String> unreadable(String combo) {
        return combo.equals("xtshmac")
                ? List.of("sectors/size-04097.bin", "sectors/size-04112.bin", "sectors/size-08192.bin",
                        "sectors/size-08208.bin", "sectors/size-12295.bin")
                : List.of("sectors/size-04097.bin", "sectors/size-04112.bin");
    }

    @ParameterizedTest
    @ValueSource(strings = {"xtshmac", "xts"})
    void exportEqualsTheDamagedManifestAndOnlyTheDamagedFilesFail(String combo) throws IOException {
        Path copy = TestVaults.copy("damaged-vault-" + combo, tmp);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, SampleVaultsTest.PASSPHRASE.toCharArray(), false)) {
            Manifest m = Manifest.of(fs.getPath("/"));
            assertThat(m.lines).containsExactlyElementsOf(
                    Manifest.read(TestVaults.testdata().resolve("damaged-vault-" + combo + ".manifest")));
            assertThat(m.unreadable).containsExactlyInAnyOrderElementsOf(unreadable(combo));
            for (String path : unreadable(combo)) {
                assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/" + path)))
                        .isInstanceOf(DamagedFileException.class)
                        .hasMessageContaining("/" + path);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xtshmac", "xts"})
    void damagedFilesAreListedWithTheSizeTheirLengthGives(String combo) throws IOException {
        Path copy = TestVaults.copy("damaged-vault-" + combo, tmp);
        Map<String, Long> expected = combo.equals("xtshmac")
                ? Map.of("size-04097.bin", 4097L, "size-04112.bin", 0L, "size-08192.bin", 4096L,
                        "size-08208.bin", 8208L, "size-12295.bin", 12295L)
                : Map.of("size-04097.bin", 4097L, "size-04112.bin", 0L, "size-08192.bin", 4096L,
                        "size-08208.bin", 8208L, "size-12295.bin", 12295L);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, SampleVaultsTest.PASSPHRASE.toCharArray(), true)) {
            for (Map.Entry<String, Long> e : expected.entrySet()) {
                assertThat(Files.size(fs.getPath("/sectors", e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xtshmac", "xts"})
    void aSecondListingChangesNothingAndReadOnlyWritesNothing(String combo) throws IOException {
        Path copy = TestVaults.copy("damaged-vault-" + combo, tmp);
        Map<String, String> untouched = snapshot(copy);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, SampleVaultsTest.PASSPHRASE.toCharArray(), true)) {
            Manifest.of(fs.getPath("/"));
        }
        assertThat(snapshot(copy)).as("read-only listing writes nothing").isEqualTo(untouched);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, SampleVaultsTest.PASSPHRASE.toCharArray(), false)) {
            Manifest.of(fs.getPath("/"));
        }
        Map<String, String> afterFirst = snapshot(copy);
        assertThat(afterFirst).isNotEqualTo(untouched);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, SampleVaultsTest.PASSPHRASE.toCharArray(), false)) {
            Manifest.of(fs.getPath("/"));
        }
        assertThat(snapshot(copy)).as("a second listing changes nothing").isEqualTo(afterFirst);
    }

    /** Every ciphertext path with its content hash. */
    private static Map<String, String> snapshot(Path vault) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(vault)) {
            for (Path p : s.toList()) {
                out.put(vault.relativize(p).toString(), Files.isRegularFile(p) ? Manifest.sha256(p) : "dir");
            }
        }
        return out;
    }
}
