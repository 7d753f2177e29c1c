package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.RecordingFileSystem;
import dev.coffer.core.util.NotDurableException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The on-disk steps: every form change, and that nothing is ever replaced. */
class EntryMovesTest {
    private static final String LONG = "l".repeat(160);
    private static final String ID = "0b3a6f2e-9c1d-4e5f-8a7b-1c2d3e4f5a6b";

    @TempDir
    Path tmp;
    private StorageFixture f;

    @BeforeEach
    void setUp() throws IOException {
        f = new StorageFixture(tmp.resolve("d"));
    }

    @Test
    void shortenedFileMovesToAShortNameAsAPlainFile() throws IOException {
        f.file(LONG, "long");
        Path payload = f.slot(LONG).payload(EntryType.FILE);
        String hash = TestVault.sha256(payload);

        assertThat(EntryMoves.move(f.slot(LONG).entryPath(), true, EntryType.FILE, f.slot("short"))).isTrue();

        assertThat(f.slot(LONG).entryPath()).doesNotExist();
        assertThat(f.slot("short").entryPath()).isRegularFile();
        assertThat(TestVault.sha256(f.slot("short").entryPath())).isEqualTo(hash);
    }

    @Test
    void shortenedFolderMovesToAShortNameWithItsPointer() throws IOException {
        f.folder(LONG, ID);

        assertThat(EntryMoves.move(f.slot(LONG).entryPath(), true, EntryType.DIRECTORY, f.slot("short"))).isTrue();

        assertThat(f.slot(LONG).entryPath()).doesNotExist();
        assertThat(Files.readString(f.slot("short").payload(EntryType.DIRECTORY))).isEqualTo(ID);
        assertThat(DirectoryLister.sortedNames(f.slot("short").entryPath())).containsExactly("dir.c9r");
    }

    @Test
    void decoratedPayloadsMoveWithTheirEntryIntoItsNewFolder() throws IOException {
        f.file(LONG, "long");
        Path old = f.slot(LONG).entryPath();
        Files.write(old.resolve("contents (1).c9r"), f.encrypt("other"));
        f.folder("short", ID);
        Files.writeString(f.slot("short").entryPath().resolve("dir (1).c9r"), ID, StandardCharsets.US_ASCII);
        String other = LONG.replace('l', 'o');

        assertThat(EntryMoves.move(old, true, EntryType.FILE, f.slot(other))).isTrue();
        assertThat(EntryMoves.move(f.slot("short").entryPath(), false, EntryType.DIRECTORY, f.slot(LONG))).isTrue();

        assertThat(old.resolve("dir.c9r")).hasContent(ID);
        assertThat(old.resolve("dir (1).c9r")).hasContent(ID);
        assertThat(f.slot("short").entryPath()).doesNotExist();
        assertThat(DirectoryLister.sortedNames(f.slot(other).entryPath()))
                .containsExactly("contents (1).c9r", "contents.c9r", "name.c9s");
        assertThat(f.decrypt(f.slot(other).entryPath().resolve("contents (1).c9r"))).isEqualTo("other");
    }

    @Test
    void shortSymlinkMovesToALongNameWithANameFile() throws IOException {
        f.symlink("short", "target");

        assertThat(EntryMoves.move(f.slot("short").entryPath(), false, EntryType.SYMLINK, f.slot(LONG))).isTrue();

        assertThat(f.slot("short").entryPath()).doesNotExist();
        Slot target = f.slot(LONG);
        assertThat(Files.readString(target.entryPath().resolve(LongNames.NAME_FILE))).isEqualTo(target.c9rName());
        assertThat(f.decrypt(target.payload(EntryType.SYMLINK))).isEqualTo("target");
    }

    @Test
    void aPayloadAdoptedUnderALongNameKeepsItsNameFileWhenTheFolderSyncFails() throws IOException {
        RecordingFileSystem rec = new RecordingFileSystem();
        StorageFixture failing = new StorageFixture(rec.wrap(tmp.resolve("failing")));
        failing.file("a", "A");
        Slot target = failing.slot(LONG);
        rec.failFolderSyncsFromMove(2); // move 1 writes name.c9s, move 2 brings the payload in

        assertThatThrownBy(() -> EntryMoves.adopt(failing.slot("a").entryPath(), EntryType.FILE, target))
                .isInstanceOf(NotDurableException.class);

        rec.folderSyncFails = folder -> false;
        assertThat(failing.slot("a").entryPath()).doesNotExist();
        assertThat(Files.readString(target.entryPath().resolve(LongNames.NAME_FILE))).isEqualTo(target.c9rName());
        assertThat(failing.decrypt(target.payload(EntryType.FILE))).isEqualTo("A");
    }

    @Test
    void anOccupiedTargetIsNeverReplaced() throws IOException {
        f.file("a", "A");
        f.file("b", "B");
        f.file(LONG, "L");
        Map<String, String> before = TestVault.snapshot(tmp);

        assertThat(EntryMoves.move(f.slot("a").entryPath(), false, EntryType.FILE, f.slot("b"))).isFalse();
        assertThat(EntryMoves.move(f.slot("a").entryPath(), false, EntryType.FILE, f.slot(LONG))).isFalse();
        assertThat(EntryMoves.adopt(f.slot("a").entryPath(), EntryType.FILE, f.slot("b"))).isFalse();

        assertThat(TestVault.snapshot(tmp)).isEqualTo(before);
    }

    @Test
    void removingAnEntryLeavesFilesThatAreNotPartOfIt() throws IOException {
        f.folder("x", ID);
        Path extra = f.slot("x").entryPath().resolve("notes from someone.txt");
        Files.writeString(extra, "keep me", StandardCharsets.UTF_8);

        EntryMoves.remove(f.slot("x").entryPath(), false, EntryType.DIRECTORY);

        assertThat(f.slot("x").payload(EntryType.DIRECTORY)).doesNotExist();
        assertThat(extra).hasContent("keep me");
    }

    @Test
    void removingAShortenedEntryRemovesPayloadNameFileAndFolder() throws IOException {
        f.file(LONG, "L");

        EntryMoves.remove(f.slot(LONG).entryPath(), true, EntryType.FILE);

        assertThat(f.slot(LONG).entryPath()).doesNotExist();
    }

    /**
     * A file a sync client drops into an emptied long-name entry folder between the removal of its
     * name file and of the folder: the name file is written back, so the file stays nameable (a
     * listing resolves it); before, it lay in a folder without name.c9s that nothing could name.
     */
    @Test
    void aFileArrivingWhileAnEmptiedFolderIsRemovedKeepsTheFoldersNameFile() throws IOException {
        f.file(LONG, "long");
        Path entry = f.slot(LONG).entryPath();
        Files.delete(f.slot(LONG).payload(EntryType.FILE));
        byte[] name = Files.readAllBytes(entry.resolve(LongNames.NAME_FILE));
        RecordingFileSystem rec = new RecordingFileSystem();
        rec.deleteFails = p -> {
            if (p.getFileName().toString().equals(LongNames.NAME_FILE)) {
                try {
                    Files.writeString(entry.resolve("contents.c9r"), "arrived"); // the sync, at this moment
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return false;
        };

        assertThat(EntryMoves.removeEmptied(rec.wrap(entry), true)).isFalse();

        assertThat(entry.resolve(LongNames.NAME_FILE)).hasBinaryContent(name);
        assertThat(entry.resolve("contents.c9r")).hasContent("arrived");
    }

    /**
     * A sync client that puts a file where an emptied long-name entry folder was, right after its
     * name file went: the folder's removal refuses the file (rmdir, which never falls back to a delete
     * that would unlink it) and keeps it; NIO's delete there unlinked it (session 39's review).
     */
    @Test
    void aFileTakingAnEmptiedFoldersPlaceIsKept() throws Exception {
        int swapped = 0;
        int removed = 0;
        for (int round = 0; round < 3000 && (swapped < 3 || removed < 3); round++) {
            f.file(LONG, "long");
            Path entry = f.slot(LONG).entryPath();
            Files.delete(f.slot(LONG).payload(EntryType.FILE));
            Path nameFile = entry.resolve(LongNames.NAME_FILE);
            Path aside = tmp.resolve("aside" + round);
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            boolean[] put = {false};
            Thread syncClient = new Thread(() -> {
                while (!stop.get()) {
                    if (!Files.exists(nameFile)) {
                        try {
                            Files.move(entry, aside);
                            Files.writeString(entry, "another device's");
                            put[0] = true;
                        } catch (IOException tooLate) {
                            // the folder went first
                        }
                        return;
                    }
                }
            });
            syncClient.start();
            try {
                EntryMoves.removeEmptied(entry, true);
            } catch (IOException refused) {
                // the folder was gone or replaced: said by the exception
            } finally {
                stop.set(true);
                syncClient.join();
            }
            if (put[0]) {
                swapped++;
                assertThat(entry).as("round %d", round).hasContent("another device's");
                Files.delete(entry);
            } else {
                removed++;
                assertThat(entry).as("round %d", round).doesNotExist();
            }
        }
        assertThat(swapped).as("rounds where the file came between the name file's removal and the folder's").isPositive();
        assertThat(removed).as("rounds where the folder went first").isPositive();
    }
}
