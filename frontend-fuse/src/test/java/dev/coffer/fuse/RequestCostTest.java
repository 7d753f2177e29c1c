package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.RecordingFileSystem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * Pins what the requests of {@code rm -rf}, {@code ls -lR} and {@code md5sum} cost on the ciphertext
 * side, on a vault over an instrumented file system: the adapter's operations are called as libfuse
 * calls them (no mount: the counts are the backing's, not the kernel's). A regression that adds a
 * stat, a listing or a folder sync to one of these per-file requests fails here.
 */
class RequestCostTest {
    @TempDir
    Path tmp;

    private final RecordingFileSystem rec = new RecordingFileSystem();
    private CofferFileSystem fs;
    private Backing backing;
    private TreeOps tree;
    private AttributeOps attributes;
    private FileStat stat;

    @BeforeEach
    void vault() throws IOException {
        fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(), VaultMountTest.FAST);
        Path root = fs.getPath("/");
        Files.createDirectories(root.resolve("d/sub"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(root.resolve("d/f" + i), "content " + i);
        }
        backing = new Backing(root, 0, 0);
        tree = new TreeOps(backing, NameForm.NFC, new ContentChanges());
        attributes = new AttributeOps(backing);
        stat = new FileStat(Runtime.getSystemRuntime());
        attributes.getattr("/d", stat); // the folder's path is resolved once, as after the kernel's first lookup
        rec.reset();
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    /** A file's lookup (getattr): one stat of its ciphertext file, nothing else. */
    @Test
    void aFileLookupIsOneStat() throws IOException {
        attributes.getattr("/d/f0", stat);
        assertThat(rec.statted).hasSize(1).allSatisfy(p -> assertThat(p).endsWith(".c9r"));
        assertNothingElse();
    }

    /**
     * An open of a file (md5sum: one per file): the lookup's stat, the open of its ciphertext file, and
     * a stat of it for the open-file registry's key, read after the open so that it names the inode the
     * channel holds (the lookup's may be stale: performance.md, "Tried and dropped").
     */
    @Test
    void anOpenIsTwoStatsOfItsCiphertextFileAndOneOpen() throws IOException {
        try (FileChannel ch = FileChannel.open(fs.getPath("/d/f0"), StandardOpenOption.READ)) {
            assertThat(ch.size()).isEqualTo("content 0".length());
            assertThat(rec.statted).hasSize(2).containsOnly(rec.statted.get(0));
            assertThat(rec.statted.get(0)).endsWith(".c9r");
            assertThat(rec.opened).singleElement().isEqualTo(rec.statted.get(0));
            assertThat(rec.listed).isEmpty();
            assertThat(rec.deleted).isEmpty();
        }
    }

    /**
     * A folder's getattr (the kernel asks for the parent after every unlink in it): its entry folder,
     * the payload probes that tell a folder from a symlink or an incomplete entry, and the storage
     * folder (whose ID comes from the mapper's cache, so {@code dir.c9r} is not read).
     */
    @Test
    void aFolderGetattrIsFourStats() throws IOException {
        attributes.getattr("/d", stat);
        assertThat(rec.statted).hasSize(4);
        assertThat(rec.statted.get(1)).endsWith("/dir.c9r");
        assertThat(rec.statted.get(2)).endsWith("/symlink.c9r");
        assertNothingElse();
    }

    /**
     * A create (tar xf, cp: one per file, O_CREAT|O_TRUNC): the core's lookup of the new name, the open
     * that makes its ciphertext file with the asked-for permissions, and the registry's stat of it. No
     * chmod and no second lookup (the permissions went with the open), no truncation of the new file.
     * Where this process's umask may remove an asked-for bit, the chmod is made: see NewEntryModesTest.
     */
    @Test
    void aCreateIsALookupAnOpenWithItsModeAndTheRegistrysStat() throws IOException {
        FileOps files = new FileOps(backing, new OpenFileTable(), new ContentChanges());
        int wronly = 01;
        int trunc = 01000;
        int before = rec.calls().size();
        long fh = files.create("/d/new", 0100600, wronly | trunc);
        try {
            assertThat(rec.opened).singleElement().satisfies(p -> assertThat(p).endsWith(".c9r"));
            String made = rec.opened.get(0);
            List<String> calls = rec.calls();
            assertThat(calls.subList(before, calls.size())).filteredOn(c -> !c.startsWith("stat ")).containsExactly("open " + made);
            assertThat(rec.statted).hasSize(2).allSatisfy(p -> assertThat(p).isEqualTo(made));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(made)))).isEqualTo("rw-------");
            assertThat(rec.listed).isEmpty();
            assertThat(rec.deleted).isEmpty();
        } finally {
            files.release(fh);
        }
    }

    /**
     * A mkdir (tar xf: one per folder): the storage folder made with the asked-for permissions, no
     * lookup of the new folder after it is made and no change of its mode (the permissions went with
     * its creation). Where this process's umask may remove an asked-for bit, the chmod is made: see
     * NewEntryModesTest.
     */
    @Test
    void aMkdirGivesTheModeWithTheStorageFoldersCreation() throws IOException {
        int before = rec.calls().size();
        tree.mkdir("/d/newdir", 0700);
        List<String> calls = rec.calls().subList(before, rec.calls().size());
        List<String> made = calls.stream().filter(c -> c.startsWith("mkdir ")).toList();
        // the storage folder (its new two-letter parent first: this store is not the default one), then the entry folder
        assertThat(made).hasSizeGreaterThanOrEqualTo(2);
        Path storage = Path.of(made.get(made.size() - 2).substring("mkdir ".length()));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(storage))).isEqualTo("rwx------");
        assertThat(calls).filteredOn(c -> c.startsWith("set ") || c.startsWith("view ")).as("mode changes").isEmpty();
        String entry = made.get(made.size() - 1).substring("mkdir ".length());
        List<String> afterEntry = calls.subList(calls.lastIndexOf("mkdir " + entry), calls.size());
        assertThat(afterEntry).filteredOn(c -> c.startsWith("stat ") && c.contains(entry)).as("lookups of the new folder").isEmpty();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fs.getPath("/d/newdir")))).isEqualTo("rwx------");
    }

    /** chmod (tar and cp -a send one per file): the core's lookup and the ciphertext file's mode, nothing else. */
    @Test
    void aChmodIsOneStatAndTheModeOfTheCiphertextFile() throws IOException {
        attributes.chmod("/d/f0", 0640);
        assertThat(rec.statted).singleElement().satisfies(p -> assertThat(p).endsWith(".c9r"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(rec.statted.get(0)))))
                .isEqualTo("rw-r-----");
        assertNothingElse();
    }

    /** unlink: the core's lookup, the delete; no folder sync, no listing. */
    @Test
    void anUnlinkIsOneStatAndOneDelete() throws IOException {
        tree.unlink("/d/f1");
        assertThat(rec.statted).singleElement().satisfies(p -> assertThat(p).endsWith(".c9r"));
        assertThat(rec.deleted).singleElement().isEqualTo(rec.statted.get(0));
        assertThat(rec.opened).as("folders synced").isEmpty();
        assertThat(rec.listed).isEmpty();
    }

    /**
     * fsyncdir after an unlink (SQLite's journal delete, maildir): the unlink left its folder unsynced,
     * the folder's fsync syncs exactly the storage folder the deleted file was in.
     */
    @Test
    void anFsyncdirSyncsTheStorageFolderOfTheDelete() throws IOException {
        tree.unlink("/d/f1");
        String deleted = rec.deleted.get(0);
        rec.reset();
        tree.syncFolder("/d");
        // the folder's pointer (dir.c9r) may be read to find its storage folder; that folder is what is synced
        assertThat(rec.opened).filteredOn(p -> !p.endsWith("/dir.c9r")).singleElement()
                .isEqualTo(deleted.substring(0, deleted.lastIndexOf('/')));
        assertThat(rec.opened).hasSizeLessThanOrEqualTo(2);
        assertThat(rec.listed).isEmpty();
        assertThat(rec.deleted).isEmpty();
    }

    /**
     * rmdir of an empty folder that was listed first (as rm -rf does): the type check (a lookup: the
     * type is asked alone, {@code basic:isDirectory}), the core's lookup and its own read of {@code
     * dir.c9r} (a delete never trusts a cache), one listing to prove the storage folder empty, the
     * deletes in spec 4's order, one sync of the parent. (On this instrumented store the deletes and
     * the listing go through NIO; on Linux's own file system they are direct rmdir, unlink and
     * getdents64 calls, which this count cannot see.)
     */
    @Test
    void anRmdirOfAnEmptyListedFolder() throws IOException {
        tree.readdir("/d/sub", null, (buf, name, st, off) -> 0);
        rec.reset();
        tree.rmdir("/d/sub");
        // The parent's lookup and the folder's, in one type-checked delete (entry folder, dir.c9r,
        // symlink.c9r each: the 3-second rule keeps no type yet); no stat of the storage folder.
        assertThat(rec.statted).hasSize(6);
        assertThat(rec.listed).hasSize(1);
        assertThat(rec.deleted).hasSize(5); // dirid.c9r, storage folder, its two-letter parent, dir.c9r, entry folder
        assertThat(rec.deleted.get(3)).endsWith("/dir.c9r");
        assertThat(rec.opened).hasSize(2); // dir.c9r read, the parent storage folder synced
        assertThat(rec.opened.get(0)).endsWith("/dir.c9r");
    }

    /**
     * readdir: the folder's lookup and its {@code dir.c9r} (read each time: a listing is never
     * stale), one listing, a stat per entry to tell files from folders, and a folder entry's
     * listing and pointer (its payload decides its type). No stat of the folder before.
     */
    @Test
    void aReaddirListsOnceAndStatsEachEntryOnce() throws IOException {
        List<String> names = new java.util.ArrayList<>();
        tree.readdir("/d", null, (buf, name, st, off) -> {
            names.add(java.nio.charset.StandardCharsets.UTF_8.decode(name).toString());
            return 0;
        });
        assertThat(names).hasSize(2 + 4);
        assertThat(rec.statted).hasSize(3 + 4);
        assertThat(rec.listed).hasSize(2); // the storage folder, and the subfolder's entry folder
        assertThat(rec.opened).hasSize(2).allSatisfy(p -> assertThat(p).endsWith("/dir.c9r"));
        assertThat(rec.deleted).isEmpty();
    }

    /**
     * A second readdir once the folder cache's trust in the folder has passed (an ls a second later,
     * with no LOOKUP in between: the kernel's entry cache) costs what the first did (session 40's
     * review: the folder stream's open had added a stat and a read of the folder's dir.c9r).
     */
    @Test
    void aSecondReaddirAfterTheFolderCachesTrustCostsTheSame() throws Exception {
        tree.readdir("/d", null, (buf, name, st, off) -> 0);
        rec.reset();
        tree.readdir("/d", null, (buf, name, st, off) -> 0);
        int stats = rec.statted.size();
        int opens = rec.opened.size();
        Thread.sleep(1200); // FolderCache.TRUST_NANOS
        rec.reset();
        tree.readdir("/d", null, (buf, name, st, off) -> 0);
        assertThat(rec.statted).as("stats").hasSize(stats);
        assertThat(rec.opened).as("opens").hasSize(opens);
    }

    private void assertNothingElse() {
        assertThat(rec.listed).as("listed").isEmpty();
        assertThat(rec.opened).as("opened").isEmpty();
        assertThat(rec.deleted).as("deleted").isEmpty();
    }
}
