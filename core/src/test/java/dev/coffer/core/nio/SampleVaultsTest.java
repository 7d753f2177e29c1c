package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.vault.InvalidPassphraseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The independent implementation's sample vaults open and read exactly (shared/testdata/README.md). */
class SampleVaultsTest {
    static final String PASSPHRASE = "correct horse battery staple 1";

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"sample-vault-xtshmac, sample-tree.manifest", "sample-vault-xts, sample-tree.manifest",
            "small-vault-threshold36, small-tree.manifest"})
    void sampleVaultExportsToExactlyItsManifest(String vault, String manifest) throws IOException {
        Path copy = TestVaults.copy(vault, tmp);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, PASSPHRASE.toCharArray(), false)) {
            Manifest m = Manifest.of(fs.getPath("/"));
            assertThat(m.unreadable).isEmpty();
            assertThat(m.lines).containsExactlyElementsOf(Manifest.read(TestVaults.testdata().resolve(manifest)));
        }
    }

    @Test
    void aWrongPassphraseIsReportedAsSuch() throws IOException {
        Path copy = TestVaults.copy("sample-vault-xtshmac", tmp);
        assertThatThrownBy(() -> CofferFileSystems.open(copy, "correct horse battery staple 2".toCharArray(), false))
                .isInstanceOf(InvalidPassphraseException.class).hasMessageContaining("wrong passphrase");
    }

    @Test
    void anNfdLookupFindsTheNfcName() throws IOException {
        Path copy = TestVaults.copy("sample-vault-xtshmac", tmp);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, PASSPHRASE.toCharArray(), true)) {
            String nfd = java.text.Normalizer.normalize("/names/Ångström (NFC).txt", java.text.Normalizer.Form.NFD);
            assertThat(Files.exists(fs.getPath(nfd))).isTrue();
            assertThat(Files.readAllBytes(fs.getPath(nfd))).isEqualTo(Files.readAllBytes(fs.getPath(
                    java.text.Normalizer.normalize(nfd, java.text.Normalizer.Form.NFC))));
        }
    }

    @Test
    void listingAFolderNeverOpensFileContents() throws IOException {
        Path copy = TestVaults.copy("sample-vault-xtshmac", tmp);
        try (CofferFileSystem fs = CofferFileSystems.open(copy, PASSPHRASE.toCharArray(), true);
             Stream<Path> s = Files.list(fs.getPath("/sectors"))) {
            long files = s.filter(p -> {
                try {
                    return Files.readAttributes(p, BasicFileAttributes.class).size() >= 0;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).count();
            assertThat(files).isGreaterThan(10);
            assertThat(fs.openFiles.isEmptyForTests()).isTrue();
        }
    }
}
