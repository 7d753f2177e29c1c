package dev.coffer.core.nio;

import dev.coffer.core.testing.SharedTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** This package's view of {@link SharedTestData}: opening may resolve conflicts on disk, so tests open copies. */
final class TestVaults {
    private TestVaults() {}

    static Path testdata() {
        return SharedTestData.testdata();
    }

    static Path copy(String name, Path tmp) throws IOException {
        return SharedTestData.copyVault(name, tmp);
    }

    /** A vault's storage folders ({@code d/XX/YYYY...}): compared before and after a mkdir, the new folder's. */
    static java.util.Set<Path> storageFolders(Path vault) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"), 2)) {
            return s.filter(p -> vault.resolve("d").relativize(p).getNameCount() == 2)
                    .collect(Collectors.toCollection(java.util.HashSet::new));
        }
    }

    /** The ciphertext of a vault's only file: its one {@code .c9r} file under {@code d/} that is not a folder's or link's. */
    static Path onlyCiphertextFile(Path vault) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            List<Path> files = s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".c9r"))
                    .filter(p -> !p.getFileName().toString().matches("(dir|dirid|symlink)\\.c9r")).collect(Collectors.toList());
            if (files.size() != 1) {
                throw new AssertionError("expected one ciphertext file, found " + files);
            }
            return files.get(0);
        }
    }

    /**
     * Stores a file in the root of an empty vault as another implementation would: its name {@code
     * nfcName} encrypted in NFD. Returns that ciphertext name.
     */
    static String storeInNfd(CofferFileSystem fs, Path vault, String nfcName, String content) throws IOException {
        Files.writeString(fs.getPath("/stored-in-nfd"), content);
        Path ciphertext = onlyCiphertextFile(vault);
        String nfdName = fs.mapper.names().encrypt(Normalizer.normalize(nfcName, Normalizer.Form.NFD), "") + ".c9r";
        Files.move(ciphertext, ciphertext.resolveSibling(nfdName));
        fs.mapper.invalidate(List.of());
        return nfdName;
    }
}
