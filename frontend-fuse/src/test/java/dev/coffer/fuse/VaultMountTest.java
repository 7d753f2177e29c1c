package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The contract through a mount of a real vault (ciphertext in a temp folder), plus what only a vault does. */
class VaultMountTest extends MountContract {
    /** Fast scrypt for tests: the smallest cost the format allows. */
    static final VaultCreationOptions FAST = new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220);

    private CofferFileSystem fs;

    @Override
    protected Path backingRoot(Path tmp) throws IOException {
        fs = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(), FAST);
        return fs.getPath("/");
    }

    @Override
    protected void closeBacking() throws IOException {
        if (fs != null) {
            fs.close();
        }
    }

    @Test
    void namesAreNfcInsideTheVault() throws IOException {
        String nfd = Normalizer.normalize("Café.txt", Normalizer.Form.NFD);
        Files.writeString(root().resolve(nfd), "coffee");
        try (Stream<Path> s = Files.list(root())) {
            List<String> names = s.map(p -> p.getFileName().toString()).toList();
            assertThat(names).containsExactly(Normalizer.normalize("Café.txt", Normalizer.Form.NFC));
        }
        assertThat(Files.readString(root().resolve("Café.txt"))).isEqualTo("coffee");
    }

    @Test
    void nothingCleartextReachesTheVaultFolder() throws IOException {
        Files.writeString(root().resolve("plain-name.txt"), "plain content that must not show");
        try (Stream<Path> s = Files.walk(tmp.resolve("vault"))) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                assertThat(p.toString()).doesNotContain("plain-name");
                assertThat(new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1))
                        .doesNotContain("plain content");
            }
        }
    }
}
