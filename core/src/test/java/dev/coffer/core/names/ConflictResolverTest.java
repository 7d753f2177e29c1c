package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One storage folder with a copy for every rule of spec 6, resolved writable and read-only. */
class ConflictResolverTest {
    private static final String LONG = "l".repeat(150) + ".txt";
    private static final String BOUNDARY = "m".repeat(142) + ".txt"; // 146 bytes: 220 characters, not shortened
    private static final String DOCS = "0b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";
    private static final String DOCS_B = "1b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";
    private static final String TINY = "2b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";
    private static final String TINY_U = "3b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";
    private static final String TINY_V = "4b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";
    private static final String DEEP = "5b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";

    @TempDir
    Path tmp;

    /** Cleartext name -> type letter and payload (decrypted content or target; the ID for folders), in on-disk order after resolving. */
    private static Map<String, String> expectedEntries(StorageFixture f) {
        Map<String, String> m = new TreeMap<>();
        m.put("hello.txt", "f:A");
        m.put("hello (1).txt", "f:B"); // rule 3
        m.put("same.txt", "f:S"); // its copy: rule 2 on cleartext
        m.put("gone.md", "f:G1"); // rule 1, then a later copy of the same X is removed
        m.put("gone 2.md", "f:G2"); // rule 3 against the copy renamed by rule 1
        m.put("notes.txt", "f:N");
        m.put("notes (1).txt", "f:N1");
        m.put("notes (1) (2).txt", "f:NB"); // the (2) rule
        m.put("report.txt", "f:R");
        m.put("report (1) (2).txt", "f:RB"); // "report (1).txt" is taken by an incomplete entry
        m.put("café.txt", "f:C");
        m.put("café (1) (2).txt", "f:CB"); // "café (1).txt" is taken by an incomplete entry stored in NFD
        m.put(LONG, "f:L");
        m.put("l".repeat(150) + " (1).txt", "f:LB"); // .c9s copy, rule 3, shortened
        m.put(LONG + " (Conflict 1)", "f:LC"); // contents (1).c9r of a shortened file
        m.put(BOUNDARY, "f:M");
        m.put("m".repeat(142) + " (1).txt", "f:MB"); // short copy, long result: moved into a new .c9s entry
        m.put("docs", "d:" + DOCS);
        m.put("docs-DESKTOP-4F2G", "d:" + DOCS_B);
        m.put("link", "l:a");
        m.put("link (1)", "l:b");
        m.put("tiny", "d:" + TINY);
        m.put("tiny (Conflict 1)", "d:" + TINY_U);
        m.put("tiny (Conflict 2)", "d:" + TINY_V);
        m.put("deep", "d:" + DEEP);
        m.put("to-file", "l:x");
        m.put("to-file (Conflict 1)", "l:y");
        Map<String, String> ordered = new LinkedHashMap<>();
        m.keySet().stream().sorted((a, b) -> java.util.Arrays.compareUnsigned(
                f.onDisk(a).getBytes(StandardCharsets.UTF_8), f.onDisk(b).getBytes(StandardCharsets.UTF_8)))
                .forEach(k -> ordered.put(k, m.get(k)));
        return ordered;
    }

    private static StorageFixture build(Path dataDir) throws IOException {
        StorageFixture f = new StorageFixture(dataDir);
        f.file("hello.txt", "A");
        f.copy("hello.txt", " (1)", EntryType.FILE, f.encrypt("B"));
        f.file("same.txt", "S");
        f.copy("same.txt", " (conflicted copy 2026-01-02)", EntryType.FILE, f.encrypt("S"));
        f.copy("gone.md", " (1)", EntryType.FILE, f.encrypt("G1"));
        f.copy("gone.md", " 2", EntryType.FILE, f.encrypt("G2"));
        f.copy("gone.md", "-DESKTOP-4F2G", EntryType.FILE, f.encrypt("G1"));
        f.file("notes.txt", "N");
        f.file("notes (1).txt", "N1");
        f.copy("notes.txt", " (1)", EntryType.FILE, f.encrypt("NB"));
        Files.createDirectory(f.slot("report (1).txt").entryPath()); // incomplete: no payload
        f.file("report.txt", "R");
        f.copy("report.txt", " (1)", EntryType.FILE, f.encrypt("RB"));
        Files.createDirectory(f.root.storage().resolve(nfdOnDisk(f, "café (1).txt"))); // incomplete, name not NFC
        f.file("café.txt", "C");
        f.copy("café.txt", " (1)", EntryType.FILE, f.encrypt("CB"));
        f.file(LONG, "L");
        f.copy(LONG, " (1)", EntryType.FILE, f.encrypt("LB"));
        f.copy(LONG, " 2", EntryType.FILE, f.encrypt("L"));
        Path longEntry = f.slot(LONG).entryPath();
        Files.write(longEntry.resolve("contents (1).c9r"), f.encrypt("LC"));
        Files.writeString(longEntry.resolve("name (1).c9s"), f.slot(LONG).c9rName(), StandardCharsets.US_ASCII);
        Files.writeString(longEntry.resolve("name 2.c9s"), "other.c9r", StandardCharsets.US_ASCII);
        f.file(BOUNDARY, "M");
        f.copy(BOUNDARY, " (1)", EntryType.FILE, f.encrypt("MB"));
        f.folder("docs", DOCS);
        f.copy("docs", " (1)", EntryType.DIRECTORY, DOCS.getBytes(StandardCharsets.US_ASCII));
        f.storage(DOCS_B);
        f.copy("docs", "-DESKTOP-4F2G", EntryType.DIRECTORY, DOCS_B.getBytes(StandardCharsets.US_ASCII));
        f.symlink("link", "a");
        f.copy("link", " (1)", EntryType.SYMLINK, f.encrypt("b"));
        f.copy("link", " 2", EntryType.SYMLINK, f.encrypt("a"));
        f.folder("tiny", TINY);
        f.storage(TINY_U);
        f.storage(TINY_V);
        Path tiny = f.slot("tiny").entryPath();
        Files.writeString(tiny.resolve("dir (1).c9r"), TINY_U, StandardCharsets.US_ASCII);
        Files.writeString(tiny.resolve("dir 2.c9r"), TINY, StandardCharsets.US_ASCII);
        Files.writeString(tiny.resolve("dir 3.c9r"), TINY_V, StandardCharsets.US_ASCII);
        f.folder("deep", DEEP);
        Files.writeString(f.slot("deep").entryPath().resolve("dir (conflicted copy 2026-01-02).c9r"), DEEP, StandardCharsets.US_ASCII);
        f.symlink("to-file", "x");
        Files.write(f.slot("to-file").entryPath().resolve("symlink (1).c9r"), f.encrypt("y"));
        Path storage = f.root.storage();
        Files.write(storage.resolve("dirid (1).c9r"), new byte[0]);
        Files.write(storage.resolve("dirid 2.c9r"), f.encrypt("another-id"));
        Files.writeString(storage.resolve("garbage.c9r"), "junk");
        Files.writeString(storage.resolve("desktop.ini"), "junk");
        Files.writeString(storage.resolve("._" + f.onDisk("hello.txt")), "junk");
        f.copy("..", " (1)", EntryType.FILE, f.encrypt("unsafe name"));
        Files.createDirectory(storage.resolve(stem(f.onDisk("hello.txt")) + " 2.c9r")); // incomplete copy
        return f;
    }

    /** What the root storage folder must hold after resolving: the entries' files plus everything left alone. */
    private static Set<String> expectedRootStorage(StorageFixture f) {
        Set<String> out = new TreeSet<>();
        for (Map.Entry<String, String> e : expectedEntries(f).entrySet()) {
            Slot s = f.slot(e.getKey());
            String onDisk = f.onDisk(e.getKey());
            out.add(onDisk);
            EntryType type = switch (e.getValue().charAt(0)) {
                case 'd' -> EntryType.DIRECTORY;
                case 'l' -> EntryType.SYMLINK;
                default -> EntryType.FILE;
            };
            if (type != EntryType.FILE || s.shortened()) {
                out.add(onDisk + "/" + type.payloadName());
            }
            if (s.shortened()) {
                out.add(onDisk + "/" + LongNames.NAME_FILE);
            }
        }
        out.add(f.onDisk(LONG) + "/name 2.c9s");
        out.add(f.onDisk("report (1).txt"));
        out.add(nfdOnDisk(f, "café (1).txt"));
        out.addAll(List.of("dirid.c9r", "dirid 2.c9r", "garbage.c9r", "desktop.ini", "._" + f.onDisk("hello.txt")));
        out.add(stem(f.onDisk("..")) + " (1).c9r");
        out.add(stem(f.onDisk("hello.txt")) + " 2.c9r");
        return out;
    }

    @Test
    void resolvesEveryRuleOnDiskExactlyAndReturnsTheFinalEntries() throws IOException {
        StorageFixture f = build(tmp.resolve("d"));
        assertThat(f.slot(BOUNDARY).shortened()).isFalse();
        assertThat(f.slot("m".repeat(142) + " (1).txt").shortened()).isTrue();
        Map<String, String> otherStorage = otherStorage(f);

        List<Entry> entries = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).containsExactlyEntriesOf(expectedEntries(f));
        assertThat(relativeTree(f.root.storage())).isEqualTo(expectedRootStorage(f));
        assertThat(otherStorage(f)).isEqualTo(otherStorage);
        for (Entry e : entries) {
            assertThat(e.entryPath()).isEqualTo(f.slot(e.name()).entryPath());
            if (e.shortened()) {
                assertThat(Files.readString(e.entryPath().resolve(LongNames.NAME_FILE))).isEqualTo(f.slot(e.name()).c9rName());
            }
        }
    }

    @Test
    void aSecondResolveChangesNothing() throws IOException {
        StorageFixture f = build(tmp.resolve("d"));
        ConflictResolver resolver = f.vault.resolver(false);
        List<Entry> first = resolver.resolve(f.vault.lister.list(f.root));
        Map<String, String> afterFirst = TestVault.snapshot(tmp.resolve("d"));

        Listing again = f.vault.lister.list(f.root);
        assertThat(again.conflictCandidates()).containsExactlyInAnyOrder(
                "garbage.c9r", stem(f.onDisk("..")) + " (1).c9r", stem(f.onDisk("hello.txt")) + " 2.c9r");
        List<Entry> second = resolver.resolve(again);

        assertThat(second).isEqualTo(first);
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(afterFirst);
    }

    @Test
    void readOnlyWritesNothingAndListsCopiesUnderTheNamesTheyWouldGet() throws IOException {
        StorageFixture f = build(tmp.resolve("d"));
        Map<String, String> before = TestVault.snapshot(tmp.resolve("d"));

        List<Entry> entries = f.vault.resolver(true).resolve(f.vault.lister.list(f.root));

        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(before);
        assertThat(described(f, entries)).containsExactlyEntriesOf(expectedEntries(f));
        Entry renamed = entries.stream().filter(e -> e.name().equals("hello (1).txt")).findFirst().orElseThrow();
        assertThat(renamed.entryPath().getFileName().toString()).isEqualTo(stem(f.onDisk("hello.txt")) + " (1).c9r");
        Entry internal = entries.stream().filter(e -> e.name().equals("tiny (Conflict 1)")).findFirst().orElseThrow();
        assertThat(internal.payload()).isEqualTo(f.slot("tiny").entryPath().resolve("dir (1).c9r"));
    }

    @Test
    void aListingWithoutConflictsIsReturnedAsItIs() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        f.file("a.txt", "A");
        Listing listing = f.vault.lister.list(f.root);
        Map<String, String> before = TestVault.snapshot(tmp.resolve("d"));

        assertThat(f.vault.resolver(false).resolve(listing)).isSameAs(listing.entries());
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(before);
    }

    /** Each entry as name -> "type:payload", in the returned order. */
    private static Map<String, String> described(StorageFixture f, List<Entry> entries) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Entry e : entries) {
            String payload = e.type() == EntryType.DIRECTORY ? Files.readString(e.payload()) : f.decrypt(e.payload());
            out.put(e.name(), switch (e.type()) {
                case FILE -> "f:";
                case DIRECTORY -> "d:";
                case SYMLINK -> "l:";
            } + payload);
        }
        return out;
    }

    private static Map<String, String> otherStorage(StorageFixture f) {
        Path dataDir = f.root.storage().getParent().getParent();
        Map<String, String> all = TestVault.snapshot(dataDir);
        String rootRel = dataDir.relativize(f.root.storage()).toString();
        all.keySet().removeIf(k -> k.equals(rootRel) || k.startsWith(rootRel + "/") || k.equals(rootRel.substring(0, 2)));
        return all;
    }

    private static Set<String> relativeTree(Path root) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(p -> !p.equals(root)).forEach(p -> out.add(root.relativize(p).toString()));
        }
        return out;
    }

    private static String nfdOnDisk(StorageFixture f, String name) {
        return f.vault.names.encrypt(Normalizer.normalize(name, Normalizer.Form.NFD), "") + LongNames.C9R;
    }

    private static String stem(String onDisk) {
        return onDisk.substring(0, onDisk.length() - 4);
    }
}
