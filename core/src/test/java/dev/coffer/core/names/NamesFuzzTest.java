package dev.coffer.core.names;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing of names (spec 4, 6): encrypted names, {@code .c9s} entries with hostile
 * {@code name.c9s} content or folder names in a live vault, conflict-copy recognition, and
 * conflict-name building. Decryption fails only with {@link AuthenticationFailedException} and
 * never yields a name that was not encrypted; recognition and naming never throw; a listing with a
 * hostile entry fails at most with an {@link IOException} and leaves the other entries readable.
 */
class NamesFuzzTest {
    private static final String DIR_ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
    private static final List<String> CLEARTEXT = List.of("report.pdf", "a", "\u00e9t\u00e9 2024.txt", "x".repeat(150),
            "\uD83D\uDE00 emoji", "name with spaces .and.dots");
    private static NameCipher names;
    private static List<String> encrypted;
    private static FileSystem memory;
    private static CofferFileSystem vault;
    private static Path rootStorage;

    @BeforeContainer
    static void setUp() throws IOException {
        byte[] key = new byte[64];
        new SecureRandom().nextBytes(key);
        names = new NameCipher(new AesSiv(key));
        encrypted = CLEARTEXT.stream().map(n -> names.encrypt(n, DIR_ID)).toList();
        memory = Jimfs.newFileSystem(Configuration.unix());
        vault = CofferFileSystems.create(memory.getPath("/vault"), "names fuzz".toCharArray(),
                new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220));
        try (Stream<Path> s = Files.walk(memory.getPath("/vault/d"))) {
            rootStorage = s.filter(p -> p.getFileName().toString().equals(DirectoryLister.DIRID_FILE)).findFirst().orElseThrow().getParent();
        }
    }

    @AfterContainer
    static void close() throws IOException {
        vault.close();
        memory.close();
    }

    @Property
    void encryptedNamesDecryptOnlyToWhatWasEncrypted(@ForAll("encryptedNames") String encName) {
        String[] out = new String[1];
        Throwable t = CleanFailure.expect(encName, () -> out[0] = names.decrypt(encName, DIR_ID), AuthenticationFailedException.class);
        if (t == null) {
            assertThat(CLEARTEXT).contains(out[0]);
        }
    }

    @Property
    void conflictRecognitionNeverThrowsAndNamesOnlyRealEntries(@ForAll("onDiskNames") String onDisk, @ForAll("nameFiles") String nameC9s) {
        ConflictRecognition recognition = new ConflictRecognition(names);
        ConflictRecognition.Copy[] copy = new ConflictRecognition.Copy[1];
        CleanFailure.expect(onDisk, () -> copy[0] = recognition.recognize(onDisk, nameC9s, DIR_ID));
        if (copy[0] != null) {
            assertThat(copy[0].decoration()).isNotEmpty();
            assertThat(CLEARTEXT.stream().map(Names::nfc).toList()).contains(copy[0].cleartextName());
        }
    }

    @Property
    void conflictNamesAlwaysFitAndKeepTheirCounter(@ForAll("cleartextNames") String name, @ForAll("cleartextNames") String decoration,
                                                   @ForAll @IntRange(min = 1, max = Integer.MAX_VALUE) int k) {
        String[] out = new String[2];
        CleanFailure.expect(name + " | " + decoration + " | " + k, () -> {
            out[0] = ConflictNames.conflictName(name, decoration, k);
            out[1] = ConflictNames.internalConflictName(name, k);
        });
        assertThat(out[0].getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Names.MAX_BYTES);
        assertThat(out[1].getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Names.MAX_BYTES);
        assertThat(out[1]).endsWith(" (Conflict " + k + ")");
        if (k > 1) {
            assertThat(out[0]).contains(" (" + k + ")");
        }
    }

    @Property
    void aHostileShortenedEntryNeverBreaksTheListing(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        String longName = "long-" + "\u00e9".repeat(80 + r.nextInt(45)); // 165 to 253 bytes: always shortened
        Files.writeString(vault.getPath("/keep.txt"), "kept");
        Files.writeString(vault.getPath("/" + longName), "long content");
        Path c9s;
        try (Stream<Path> s = Files.list(rootStorage)) {
            c9s = s.filter(p -> p.getFileName().toString().endsWith(".c9s")).findFirst().orElseThrow();
        }
        String change = damage(c9s, r);
        CleanFailure.expect(change, () -> readEverything(vault.getPath("/")), IOException.class);
        assertThat(Files.readString(vault.getPath("/keep.txt"))).as(change).isEqualTo("kept");
        clearRootStorage();
    }

    @Property
    void hostileCleartextNamesAreStoredExactlyOrRefusedCleanly(@ForAll("cleartextNames") String name) throws IOException {
        List<String> listed = new ArrayList<>();
        String[] written = new String[1];
        try {
            Throwable t = CleanFailure.expect(name, () -> {
                Path p = vault.getPath("/", name);
                written[0] = p.getNameCount() == 1 ? p.getFileName().toString() : null;
                Files.writeString(p, "x");
                try (Stream<Path> s = Files.list(vault.getPath("/"))) {
                    s.forEach(c -> listed.add(c.getFileName().toString()));
                }
                assertThat(Files.readString(p)).isEqualTo("x");
            }, IOException.class, java.nio.file.InvalidPathException.class);
            if (t == null && written[0] != null) {
                // What is listed is the name that was written (in NFC): never a lossy stand-in for it.
                assertThat(listed.stream().map(CleanFailure::escaped).toList()).as(CleanFailure.show(name))
                        .containsExactly(CleanFailure.escaped(Names.nfc(written[0])));
            }
        } finally {
            clearRootStorage();
        }
    }

    @Property
    void hostileFolderPointersAndSymlinkTargetsFailCleanly(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        Files.writeString(vault.getPath("/keep.txt"), "kept");
        Files.createDirectory(vault.getPath("/folder"));
        Files.writeString(vault.getPath("/folder/inner.txt"), "inner");
        Files.createSymbolicLink(vault.getPath("/link"), vault.getPath("keep.txt"));
        String change;
        try (Stream<Path> s = Files.walk(rootStorage)) {
            List<Path> payloads = s.filter(p -> p.getFileName().toString().equals("dir.c9r")
                    || p.getFileName().toString().equals("symlink.c9r")).toList();
            Path target = payloads.get(r.nextInt(payloads.size()));
            byte[] mutant = r.nextInt(5) == 0 ? new byte[r.nextInt(20_000)] : Mutations.mutate(Files.readAllBytes(target), r);
            Files.write(target, mutant);
            change = target.getFileName() + " = " + CleanFailure.show(mutant);
        }
        CleanFailure.expect(change, () -> readEverything(vault.getPath("/")), IOException.class);
        assertThat(Files.readString(vault.getPath("/keep.txt"))).as(change).isEqualTo("kept");
        clearRootStorage();
    }

    /**
     * Lists every folder and reads every file and link under {@code dir}, with the plain NIO calls
     * (no {@code Files.walk}, which wraps I/O errors in unchecked exceptions by design); the one
     * unchecked wrapper that {@link java.nio.file.DirectoryStream} defines is unwrapped.
     */
    private static void readEverything(Path dir) throws IOException {
        List<Path> children = new ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                children.add(p);
            }
        } catch (java.nio.file.DirectoryIteratorException e) {
            throw e.getCause();
        }
        for (Path p : children) {
            if (Files.isSymbolicLink(p)) {
                Files.readSymbolicLink(p);
            } else if (Files.isDirectory(p)) {
                readEverything(p);
            } else {
                Files.readAllBytes(p);
            }
        }
    }

    /** One hostile change to a shortened entry, as a foreign tool or a sync client might leave it; returns what was done. */
    private static String damage(Path c9s, Random r) throws IOException {
        Path nameFile = c9s.resolve(LongNames.NAME_FILE);
        byte[] valid = Files.readAllBytes(nameFile);
        switch (r.nextInt(6)) {
            case 0, 1, 2: {
                byte[] mutant = Mutations.mutate(valid, r);
                Files.write(nameFile, mutant);
                return "name.c9s = " + CleanFailure.show(mutant);
            }
            case 3: {
                String decorated = c9s.getFileName().toString().replace(".c9s", r.nextBoolean() ? " (1).c9s" : "-conflict.c9s");
                Files.move(c9s, c9s.resolveSibling(decorated));
                return "renamed to " + decorated;
            }
            case 4: {
                Files.delete(nameFile);
                Files.createDirectory(nameFile);
                return "name.c9s is a folder";
            }
            default: {
                Files.copy(c9s.resolve("contents.c9r"), c9s.resolve(r.nextBoolean() ? "dir.c9r" : "symlink.c9r"));
                return "second payload";
            }
        }
    }

    private static void clearRootStorage() throws IOException {
        try (Stream<Path> s = Files.walk(rootStorage)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(rootStorage) && !p.getFileName().toString().equals(DirectoryLister.DIRID_FILE)) {
                    Files.delete(p);
                }
            }
        }
    }

    @Provide
    Arbitrary<String> encryptedNames() {
        List<Arbitrary<String>> around = new ArrayList<>();
        for (String e : encrypted) {
            around.add(Mutations.aroundText(e));
        }
        return Arbitraries.oneOf(Arbitraries.oneOf(around), base64ish(), Arbitraries.strings().ofMaxLength(300));
    }

    @Provide
    Arbitrary<String> onDiskNames() {
        Arbitrary<String> decorated = Arbitraries.of(encrypted).flatMap(e -> Arbitraries.of(" (1)", " (conflicted copy 2024-01-01)", ".sync-conflict-20240101",
                "-1", "(1)", "~", "", "A", "AAAA", "====").map(d -> e + d + ".c9r"));
        Arbitrary<String> shortened = Arbitraries.of(encrypted).flatMap(e -> Arbitraries.of("", " (1)", "x", "=").map(
                d -> LongNames.shortened(e + ".c9r").replace(".c9s", d + ".c9s")));
        return Arbitraries.oneOf(decorated, shortened, Arbitraries.of(encrypted).flatMap(e -> Mutations.aroundText(e + ".c9r")),
                base64ish().map(s -> s + ".c9r"), Arbitraries.strings().ofMaxLength(260));
    }

    @Provide
    Arbitrary<String> nameFiles() {
        return Arbitraries.oneOf(Arbitraries.of(encrypted).map(e -> e + ".c9r"),
                Arbitraries.of(encrypted).flatMap(e -> Mutations.aroundText(e + ".c9r")), Arbitraries.strings().ofMaxLength(1100));
    }

    @Provide
    Arbitrary<String> cleartextNames() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(300), Arbitraries.strings().withCharRange('\u0300', '\u036f').ofMaxLength(300),
                Arbitraries.strings().withCharRange('\uD800', '\uDFFF').ofMaxLength(40), Arbitraries.of("", ".", "..", ".hidden", "a.", "\u00e9".repeat(200),
                        "\uD83D\uDE00".repeat(100), "x".repeat(255), "x".repeat(5000)));
    }

    private static Arbitrary<String> base64ish() {
        return Arbitraries.strings().withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/")
                .ofMinLength(20).ofMaxLength(400);
    }
}
