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
 * Entry folders (not conflict copies) that hold decorated payloads but no payload of their own, as
 * a crash in a move between the short and long forms, a move into a short file entry, or a sync
 * client adding {@code contents (1).c9r} to an entry renamed on another device leaves them: every
 * such payload must be listed as {@code <N> (Conflict k)} (spec 6), none hidden in a folder no
 * listing shows, nothing deleted or overwritten.
 */
class DecoratedPayloadsWithoutPayloadTest {
    private static final String MOVED = "a".repeat(150) + ".txt";
    private static final String MOVED_TO = "b".repeat(150) + ".txt";
    private static final String TWO = "c".repeat(150) + ".txt";
    private static final String LINK = "d".repeat(150);
    private static final String SHORT_FOLDER = "short folder";

    @TempDir
    Path tmp;

    /** Payload-less entry folders as crashes and sync clients leave them, all more than a day old. */
    private StorageFixture build() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        // A move to a new name whose payload was renamed before the crash: the decorated copy stayed.
        f.file(MOVED_TO, "moved");
        Path moved = longEntryFolder(f, MOVED);
        Files.write(moved.resolve("contents (1).c9r"), f.encrypt("other device's"));

        Path two = longEntryFolder(f, TWO);
        Files.write(two.resolve("contents 2.c9r"), f.encrypt("second"));
        Files.write(two.resolve("contents (1).c9r"), f.encrypt("first"));
        Files.writeString(two.resolve("name (1).c9s"), f.slot(TWO).c9rName(), StandardCharsets.US_ASCII);

        Path link = longEntryFolder(f, LINK);
        Files.write(link.resolve("symlink (1).c9r"), f.encrypt("target"));

        f.storage("5c0d7c6e-2d0e-4f0f-8a7e-1f7c2b3a4d5e");
        Path folder = f.slot(SHORT_FOLDER).entryPath(); // X.c9r/ refilled by a sync client after a rename elsewhere
        Files.createDirectory(folder);
        Files.writeString(folder.resolve("dir (1).c9r"), "5c0d7c6e-2d0e-4f0f-8a7e-1f7c2b3a4d5e", StandardCharsets.US_ASCII);
        age(moved, two, link, folder);
        return f;
    }

    private static Path longEntryFolder(StorageFixture f, String name) throws IOException {
        Slot s = f.slot(name);
        assertThat(s.shortened()).isTrue();
        Files.createDirectory(s.entryPath());
        Files.writeString(s.entryPath().resolve(LongNames.NAME_FILE), s.c9rName(), StandardCharsets.US_ASCII);
        return s.entryPath();
    }

    private static Map<String, String> expected() {
        Map<String, String> m = new TreeMap<>();
        m.put(MOVED_TO, "moved");
        m.put(MOVED + " (Conflict 1)", "other device's");
        m.put(TWO + " (Conflict 1)", "first"); // byte order: "contents (1)" before "contents 2"
        m.put(TWO + " (Conflict 2)", "second");
        m.put(LINK + " (Conflict 1)", "target");
        m.put(SHORT_FOLDER + " (Conflict 1)", "[folder 5c0d7c6e-2d0e-4f0f-8a7e-1f7c2b3a4d5e]");
        return m;
    }

    @Test
    void everyDecoratedPayloadOfAPayloadlessEntryIsListedAsAConflictEntry() throws IOException {
        StorageFixture f = build();

        List<Entry> entries = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(expected());
        // Settled folders go once emptied, except one still holding a name.c9s copy that differs from nothing.
        assertThat(f.slot(MOVED).entryPath()).doesNotExist();
        assertThat(f.slot(LINK).entryPath()).doesNotExist();
        assertThat(f.slot(SHORT_FOLDER).entryPath()).doesNotExist();
        assertThat(f.slot(TWO).entryPath()).doesNotExist(); // its name (1).c9s was identical, so removed
        Map<String, String> after = TestVault.snapshot(tmp.resolve("d"));
        assertThat(described(f, f.vault.resolver(false).resolve(f.vault.lister.list(f.root)))).isEqualTo(expected());
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(after);
    }

    @Test
    void readOnlyListsThemUnderTheNamesTheyWouldGetAndWritesNothing() throws IOException {
        StorageFixture f = build();
        Map<String, String> before = TestVault.snapshot(tmp.resolve("d"));

        List<Entry> entries = f.vault.resolver(true).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(expected());
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(before);
    }

    @Test
    void aYoungFolderKeepsItsNameFileSoThatAPayloadArrivingLaterIsListed() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        Path entry = longEntryFolder(f, MOVED); // a sync client still delivering the entry
        Files.write(entry.resolve("contents (1).c9r"), f.encrypt("copy"));

        List<Entry> first = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));
        Files.write(entry.resolve("contents.c9r"), f.encrypt("payload")); // delivered after the listing
        List<Entry> second = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, first)).isEqualTo(Map.of(MOVED + " (Conflict 1)", "copy"));
        assertThat(described(f, second)).isEqualTo(Map.of(MOVED + " (Conflict 1)", "copy", MOVED, "payload"));
    }

    @Test
    void aTakenConflictNameIsNeverOverwritten() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        f.file(MOVED + " (Conflict 1)", "already there");
        Path entry = longEntryFolder(f, MOVED);
        Files.write(entry.resolve("contents (1).c9r"), f.encrypt("copy"));
        age(entry);

        List<Entry> entries = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(Map.of(
                MOVED + " (Conflict 1)", "already there", MOVED + " (Conflict 2)", "copy"));
    }

    @Test
    void aCopyOfAPointerAnEntryHereHoldsIsNotShownUnderASecondName() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        String id = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";
        f.folder(MOVED_TO, id); // a long-named folder moved to a new name: its dir.c9r went first,
        Path old = longEntryFolder(f, MOVED); // then the crash, before its unresolved identical copy followed
        Files.writeString(old.resolve("dir (1).c9r"), id, StandardCharsets.US_ASCII);
        age(old);
        Map<String, String> before = TestVault.snapshot(tmp.resolve("d"));

        List<Entry> readOnly = f.vault.resolver(true).resolve(f.vault.lister.list(f.root));
        assertThat(TestVault.snapshot(tmp.resolve("d"))).isEqualTo(before);
        List<Entry> writable = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, readOnly)).isEqualTo(Map.of(MOVED_TO, "[folder " + id + "]"));
        assertThat(described(f, writable)).isEqualTo(Map.of(MOVED_TO, "[folder " + id + "]"));
        assertThat(old).doesNotExist();
    }

    @Test
    void aMoveIntoAShortFileEntryLeavesNoDecoratedPayloadHidden() throws IOException {
        StorageFixture f = new StorageFixture(tmp.resolve("d"));
        f.file(MOVED, "payload");
        Path old = f.slot(MOVED).entryPath();
        Files.write(old.resolve("contents (1).c9r"), f.encrypt("copy"));

        assertThat(EntryMoves.move(old, true, EntryType.FILE, f.slot("short.txt"))).isTrue();
        List<Entry> entries = f.vault.resolver(false).resolve(f.vault.lister.list(f.root));

        assertThat(described(f, entries)).isEqualTo(Map.of("short.txt", "payload", MOVED + " (Conflict 1)", "copy"));
    }

    private static void age(Path... folders) throws IOException {
        FileTime old = FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS));
        for (Path folder : folders) {
            try (Stream<Path> inside = Files.list(folder)) {
                for (Path p : inside.toList()) {
                    Files.setLastModifiedTime(p, old);
                }
            }
            Files.setLastModifiedTime(folder, old);
        }
    }

    private static Map<String, String> described(StorageFixture f, List<Entry> entries) throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (Entry e : entries) {
            String content = e.type() == EntryType.DIRECTORY
                    ? "[folder " + Files.readString(e.payload(), StandardCharsets.US_ASCII) + "]" : f.decrypt(e.payload());
            assertThat(out.put(e.name(), content)).as("listed twice: %s", e.name()).isNull();
        }
        return out;
    }
}
