package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A folder listed with its entries' types from the system's listing gives exactly the listing that a
 * stat of every entry gives: in the independent implementation's vaults, damaged ones included, and
 * with items a sync client or a person may leave in storage (a symlink, a folder without payload, a
 * file named like a shortened entry).
 */
class ListingTypesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"sample-vault-xtshmac", "damaged-vault-xtshmac", "damaged-vault-xts", "small-vault-threshold36"})
    void everyFolderListsTheSameWithTypesFromTheListing(String vaultName) throws Exception {
        TestVault v = unlockedCopy(vaultName);
        Path root = v.mapper.root().storage();
        String file = entryName(v, "a file.txt");
        Files.writeString(root.resolve(file), "not a real file, only listed");
        Files.createSymbolicLink(root.resolve(entryName(v, "a symlink in storage")), root.resolve(file));
        Files.createDirectory(root.resolve(entryName(v, "a folder without payload")));
        Files.writeString(root.resolve(LongNames.shortened(entryName(v, "a file named like a shortened entry"))),
                "skipped, and the folder still lists");
        DirectoryLister stating = new DirectoryLister(v.names, StorageItem::sortedThroughJdk);
        assertThat(LinuxDirents.read(root)).as("read natively here").isNotNull();

        List<CiphertextDirectory> folders = new ArrayList<>(List.of(v.mapper.root()));
        int listed = 0;
        while (!folders.isEmpty()) {
            CiphertextDirectory dir = folders.remove(folders.size() - 1);
            Listing listing = v.lister.list(dir);

            assertThat(listing).isEqualTo(stating.list(dir));
            listed += listing.entries().size();
            for (Entry e : listing.entries()) {
                if (e.type() == EntryType.DIRECTORY) {
                    folders.add(v.mapper.open(e, "/" + e.name()));
                }
            }
        }
        assertThat(listed).isGreaterThan(3);
    }

    /**
     * What the listing said is not trusted beyond file and folder, and an item that changed since the
     * folder was read counts as what it is now: a folder replaced by a file, a file listed as a
     * symlink (as some network file systems report files), a folder listed as gone-missing, a
     * shortened entry that is a file (incomplete: skipped, not a failure of the whole listing).
     */
    @Test
    void anItemThatIsNoLongerWhatTheListingSaidCountsAsWhatItIsNow() throws Exception {
        TestVault v = unlockedCopy("sample-vault-xtshmac");
        Path root = v.mapper.root().storage();
        String nowAFile = entryName(v, "was a folder");
        String saidSymlink = entryName(v, "said to be a symlink");
        String gone = entryName(v, "gone");
        String shortenedNowAFile = LongNames.shortened(entryName(v, "a shortened entry"));
        Files.writeString(root.resolve(nowAFile), "now a file");
        Files.writeString(root.resolve(shortenedNowAFile), "a shortened entry is a folder, never a file");
        Files.writeString(root.resolve(saidSymlink), "a file");
        DirectoryLister stale = new DirectoryLister(v.names, folder -> {
            List<StorageItem> items = new ArrayList<>(StorageItem.sorted(folder));
            items.replaceAll(i -> i.name().equals(nowAFile) || i.name().equals(shortenedNowAFile)
                    ? new StorageItem(i.name(), StorageItem.Kind.FOLDER)
                    : i.name().equals(saidSymlink) ? new StorageItem(saidSymlink, StorageItem.Kind.OTHER) : i);
            items.add(new StorageItem(gone, StorageItem.Kind.FOLDER));
            items.sort(Comparator.comparing(StorageItem::name, Utf8Order.COMPARATOR));
            return items;
        });

        Listing listing = stale.list(v.mapper.root());

        assertThat(listing).isEqualTo(v.lister.list(v.mapper.root()));
        assertThat(listing.entries()).filteredOn(e -> e.type() == EntryType.FILE).extracting(Entry::name)
                .contains("was a folder", "said to be a symlink");
        assertThat(listing.entries()).extracting(Entry::name).doesNotContain("gone", "a shortened entry");
    }

    /**
     * A file or folder the listing names is taken as it says, without asking the item (no lstat per
     * item: what makes a listing cheap): a file deleted right after the folder was read is still
     * listed, as any readdir would list it. Anything else the listing says is asked.
     */
    @Test
    void whatTheListingCallsAFileIsNotAskedAgain() throws Exception {
        TestVault v = unlockedCopy("sample-vault-xtshmac");
        Path root = v.mapper.root().storage();
        String deleted = entryName(v, "deleted after the listing");
        Files.writeString(root.resolve(deleted), "ciphertext");
        List<StorageItem> read = StorageItem.sorted(root);
        Files.delete(root.resolve(deleted));
        assertThat(read).contains(new StorageItem(deleted, StorageItem.Kind.FILE));

        Listing listing = new DirectoryLister(v.names, folder -> new ArrayList<>(read)).list(v.mapper.root());

        assertThat(listing.entries()).extracting(Entry::name).contains("deleted after the listing");
        Listing asked = new DirectoryLister(v.names, folder -> {
            List<StorageItem> unknown = new ArrayList<>();
            read.forEach(i -> unknown.add(new StorageItem(i.name(), StorageItem.Kind.UNKNOWN)));
            return unknown;
        }).list(v.mapper.root());
        assertThat(asked.entries()).extracting(Entry::name).doesNotContain("deleted after the listing");
    }

    /** A copy of one of the independent implementation's vaults, unlocked. */
    private TestVault unlockedCopy(String vaultName) throws Exception {
        Path vault = tmp.resolve(vaultName);
        TestVault.copyTree(TestData.dir().resolve(vaultName), vault);
        return TestVault.unlock(vault);
    }

    /** The on-disk name of root entry {@code name} (not shortened). */
    private static String entryName(TestVault v, String name) {
        return v.names.encrypt(name, "") + ".c9r";
    }
}
