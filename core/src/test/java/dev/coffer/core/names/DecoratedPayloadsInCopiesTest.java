package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entry copies that a sync client duplicated together with a conflict copy of their payload
 * ({@code <s> (1).c9s/contents (1).c9r}): every payload must end up listed as an entry of its own
 * (spec 6), none left in an emptied copy folder that no listing shows.
 */
class DecoratedPayloadsInCopiesTest {
    private static final String RULE3 = "a".repeat(150) + ".txt";
    private static final String RULE1 = "b".repeat(150) + ".txt";
    private static final String RULE2 = "c".repeat(150) + ".txt";
    private static final String SHELL = "d".repeat(150) + ".txt";
    private static final String SHORT_TO_LONG = "e".repeat(146);

    @TempDir
    Path tmp;

    private StorageFixture build() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        f.file(RULE3, "L");
        Path copy = f.copy(RULE3, " (1)", EntryType.FILE, f.encrypt("LB"));
        Files.write(copy.resolve("contents (1).c9r"), f.encrypt("LX"));

        copy = f.copy(RULE1, " (1)", EntryType.FILE, f.encrypt("A1")); // no original: rule 1
        Files.write(copy.resolve("contents (conflicted copy 2026-01-02).c9r"), f.encrypt("A2"));

        f.file(RULE2, "S");
        copy = f.copy(RULE2, " 2", EntryType.FILE, f.encrypt("S")); // identical: rule 2
        Files.write(copy.resolve("contents (1).c9r"), f.encrypt("SX"));
        Files.write(copy.resolve("contents 2.c9r"), f.encrypt("S")); // identical to the copy's payload

        f.file(SHELL, "Q");
        Path shell = f.root.storage().resolve(stem(f.onDisk(SHELL)) + " (1).c9s"); // what earlier versions left
        Files.createDirectory(shell);
        Files.writeString(shell.resolve(LongNames.NAME_FILE), f.slot(SHELL).c9rName(), StandardCharsets.US_ASCII);
        Files.write(shell.resolve("contents (1).c9r"), f.encrypt("QX"));
        for (Path p : List.of(shell.resolve(LongNames.NAME_FILE), shell.resolve("contents (1).c9r"), shell)) {
            Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS)));
        }

        f.symlink(SHORT_TO_LONG, "t");
        copy = f.copy(SHORT_TO_LONG, " (1)", EntryType.SYMLINK, f.encrypt("u")); // short copy, long result
        Files.write(copy.resolve("symlink (1).c9r"), f.encrypt("v"));
        return f;
    }

    private static Map<String, String> expected() {
        Map<String, String> m = new TreeMap<>();
        m.put(RULE3, "L");
        m.put("a".repeat(150) + " (1).txt", "LB");
        m.put(RULE3 + " (Conflict 1)", "LX");
        m.put(RULE1, "A1");
        m.put(RULE1 + " (Conflict 1)", "A2");
        m.put(RULE2, "S");
        m.put(RULE2 + " (Conflict 1)", "SX");
        m.put(SHELL, "Q");
        m.put(SHELL + " (Conflict 1)", "QX");
        m.put(SHORT_TO_LONG, "t");
        m.put(SHORT_TO_LONG + " (1)", "u");
        m.put(SHORT_TO_LONG + " (Conflict 1)", "v");
        return m;
    }

    @Test
    void everyDecoratedPayloadOfACopyBecomesAnEntryAndNoShellIsLeft() throws IOException {
        StorageFixture f = build();

        List<Entry> entries = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(expected());
        assertThat(onDiskTopLevel(f)).containsExactlyInAnyOrderElementsOf(
                Stream.concat(expected().keySet().stream().map(f::onDisk), Stream.of(DirectoryLister.DIRID_FILE)).toList());
        Map<String, String> after = TestVault.snapshot(tmp.resolve("d"));
        assertThat(described(f, f.vault.resolver(false).resolve(f.vault.lister.list(f.root)))).isEqualTo(expected());
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(after);
    }

    @Test
    void readOnlyListsEveryDecoratedPayloadOfACopyAndWritesNothing() throws IOException {
        StorageFixture f = build();
        Map<String, String> before = TestVault.snapshot(tmp.resolve("d"));

        List<Entry> entries = f.vault.resolver(true).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(expected());
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(before);
    }

    @Test
    void aYoungCopyFolderWhosePayloadHasNotArrivedKeepsItsNameFile() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        f.file(SHELL, "Q");
        Path copy = f.root.storage().resolve(stem(f.onDisk(SHELL)) + " (1).c9s"); // a sync still delivering it
        Files.createDirectory(copy);
        Files.writeString(copy.resolve(LongNames.NAME_FILE), f.slot(SHELL).c9rName(), StandardCharsets.US_ASCII);
        Files.write(copy.resolve("contents (1).c9r"), f.encrypt("QX"));

        f.vault.resolver(false).resolve(f.vault.lister.list(f.root));
        Files.createDirectories(copy); // the sync client delivers the payload, into the folder as it finds it
        Files.write(copy.resolve("contents.c9r"), f.encrypt("QB"));
        List<Entry> entries = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(Map.of(
                SHELL, "Q", SHELL + " (Conflict 1)", "QX", "d".repeat(150) + " (1).txt", "QB"));
    }

    private static Map<String, String> described(StorageFixture f, List<Entry> entries) throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (Entry e : entries) {
            assertThat(out.put(e.name(), f.decrypt(e.payload()))).as("listed twice: %s", e.name()).isNull();
        }
        return out;
    }

    private static List<String> onDiskTopLevel(StorageFixture f) throws IOException {
        try (Stream<Path> s = Files.list(f.root.storage())) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static String stem(String onDisk) {
        return onDisk.substring(0, onDisk.length() - 4);
    }
}
