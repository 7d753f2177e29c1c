package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libfuse's kept names as {@link TreeOps} sees them, calls made in the order libfuse 2.9 makes them
 * for one request (look a free kept name up, move the open file there, then rename over it), over a
 * plain folder without a mount, so that the cases a real mount cannot make on demand are reached:
 * the rename's target name taken meanwhile, a put-back file renamed (and its folder) and its name
 * reused, its folder gone, no place free at all, and a new request on the same thread.
 */
class KeptNamesTest {
    private static final String KEPT = "/.fuse_hidden0000000200000001";

    @TempDir
    Path root;
    private Backing backing;
    private TreeOps tree;
    private AttributeOps attributes;

    @BeforeEach
    void ops() {
        backing = new Backing(root, 0, 0);
        tree = new TreeOps(backing, NameForm.NFC, new ContentChanges());
        attributes = new AttributeOps(backing);
    }

    /**
     * A file at {@code path} with {@code content} (its folder made if missing) that a program has open,
     * a folder {@code /folder} to rename over it, and libfuse's move of the file out of the way.
     */
    private void openFileMovedAway(String path, String content) throws IOException {
        Path file = root.resolve(path.substring(1));
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.createDirectories(root.resolve("folder"));
        libfuseMovesAway(path);
    }

    /** What libfuse does before renaming over an open {@code path}: finds a free kept name, moves the file there. */
    private void libfuseMovesAway(String path) throws IOException {
        tree.requestStarts();
        assertThatThrownBy(() -> attributes.getattr(KEPT, new ru.serce.jnrfuse.struct.FileStat(jnr.ffi.Runtime.getSystemRuntime())))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
        tree.rename(path, KEPT);
    }

    @Test
    void aFailedRenameOverAMovedAwayFilePutsItBack() throws IOException {
        openFileMovedAway("/open.txt", "keep me");
        assertThat(root.resolve("open.txt")).doesNotExist();
        assertThatThrownBy(() -> tree.rename("/folder", "/open.txt")).isInstanceOf(NotDirectoryException.class);
        assertThat(Files.readString(root.resolve("open.txt"))).isEqualTo("keep me");
        assertThat(Files.readString(backing.resolve(KEPT))).as("libfuse's kept name is served from there").isEqualTo("keep me");
        tree.requestStarts();
        tree.unlink(KEPT); // libfuse at the last close
        assertThat(Files.readString(root.resolve("open.txt"))).isEqualTo("keep me");
    }

    @Test
    void aTakenNameIsNeverReplacedThePutBackFileGetsANameOfItsOwn() throws IOException {
        openFileMovedAway("/open.txt", "old version");
        Files.writeString(root.resolve("open.txt"), "what got there meanwhile"); // a sync client, or the failed rename
        assertThatThrownBy(() -> tree.rename("/folder", "/open.txt")).isInstanceOf(IOException.class);
        assertThat(Files.readString(root.resolve("open.txt"))).isEqualTo("what got there meanwhile");
        Path kept = root.resolve(TreeOps.KEPT_FILE_NAME + " 1");
        assertThat(Files.readString(kept)).isEqualTo("old version");
        assertThat(backing.resolve(KEPT)).isEqualTo(kept);
    }

    @Test
    void aPutBackFileIsFollowedThroughRenamesAndNotConfusedWithANewFileOfItsName() throws IOException {
        openFileMovedAway("/d/open.txt", "keep me");
        assertThatThrownBy(() -> tree.rename("/folder", "/d/open.txt")).isInstanceOf(NotDirectoryException.class);
        tree.requestStarts();
        tree.rename("/d/open.txt", "/d/renamed.txt");
        tree.requestStarts();
        tree.rename("/d", "/e");
        Files.writeString(root.resolve("e/open.txt"), "another file");
        assertThat(Files.readString(backing.resolve("/e/" + KEPT.substring(1)))).as("the kept name finds the file where it went")
                .isEqualTo("keep me");
        Files.move(root.resolve("e/renamed.txt"), root.resolve("e/moved-by-a-sync-client.txt"));
        Files.writeString(root.resolve("e/renamed.txt"), "a new file under that name");
        assertThat(backing.resolve("/e/" + KEPT.substring(1))).as("not the new file: the kept name finds nothing").doesNotExist();
        tree.requestStarts();
        tree.unlink("/e/" + KEPT.substring(1)); // libfuse at the last close
        assertThat(Files.readString(root.resolve("e/moved-by-a-sync-client.txt"))).isEqualTo("keep me");
        assertThat(Files.readString(root.resolve("e/renamed.txt"))).isEqualTo("a new file under that name");
    }

    @Test
    void whenItsFolderIsGoneThePutBackFileGoesToTheTopFolder() throws IOException {
        openFileMovedAway("/d/open.txt", "keep me");
        Files.delete(root.resolve("d")); // a sync client removed the emptied folder meanwhile
        assertThatThrownBy(() -> tree.rename("/folder", "/d/open.txt")).isInstanceOf(IOException.class);
        assertThat(Files.readString(root.resolve(TreeOps.KEPT_FILE_NAME + " 1"))).isEqualTo("keep me");
    }

    @Test
    void aFileThatCanGoNowhereIsKeptAndSavedWhenAMountEndsOrStarts() throws IOException {
        Files.writeString(root.resolve("open.txt"), "keep me");
        Files.createDirectory(root.resolve("folder"));
        for (int i = 1; i <= 20; i++) {
            Files.writeString(root.resolve(TreeOps.KEPT_FILE_NAME + " " + i), "taken");
        }
        libfuseMovesAway("/open.txt");
        Files.writeString(root.resolve("open.txt"), "taken too");
        assertThatThrownBy(() -> tree.rename("/folder", "/open.txt")).isInstanceOf(IOException.class);
        assertThat(Files.readString(backing.resolve(KEPT))).as("still served by its kept name").isEqualTo("keep me");
        tree.requestStarts();
        tree.unlink(KEPT); // libfuse at the last close: must not delete it
        tree.rescueUnplaced(); // this mount ends: still nowhere to go
        backing.clearUnlinked();
        assertThat(root.resolve(Backing.UNLINKED)).as("kept, marked to keep").isDirectory();

        ops(); // the next mount: a new session knows nothing of it, and libfuse's kept names start over
        tree.rescueUnplaced(); // what the mount does before its session starts: still nowhere to go
        backing.clearUnlinked();
        assertThat(root.resolve(Backing.UNLINKED)).as("still kept").isDirectory();
        Files.writeString(root.resolve("open2.txt"), "keep me too");
        libfuseMovesAway("/open2.txt"); // the same kept name as in the session before
        Files.writeString(root.resolve("open2.txt"), "taken as well");
        assertThatThrownBy(() -> tree.rename("/folder", "/open2.txt")).isInstanceOf(IOException.class);
        assertThat(Files.readString(backing.resolve(KEPT))).as("this session's file, not the earlier one").isEqualTo("keep me too");
        Files.delete(root.resolve(TreeOps.KEPT_FILE_NAME + " 7"));
        Files.delete(root.resolve(TreeOps.KEPT_FILE_NAME + " 8"));
        tree.rescueUnplaced();
        backing.clearUnlinked();
        assertThat(List.of(Files.readString(root.resolve(TreeOps.KEPT_FILE_NAME + " 7")),
                Files.readString(root.resolve(TreeOps.KEPT_FILE_NAME + " 8")))).containsExactlyInAnyOrder("keep me", "keep me too");
        assertThat(root.resolve(Backing.UNLINKED)).doesNotExist();
    }

    @Test
    void aMoveAwayIsForgottenWhenTheNextRequestStarts() throws IOException {
        openFileMovedAway("/open.txt", "unlinked while open"); // an unlink of an open file: the request ends here
        tree.requestStarts();
        tree.rename("/folder", "/open.txt"); // a later request: the name is free, nothing to put back
        assertThat(root.resolve("open.txt")).isDirectory();
        assertThat(Files.readString(backing.resolve(KEPT))).as("still kept, for libfuse to delete at its last close")
                .isEqualTo("unlinked while open");
    }

    @Test
    void aRenameToAKeptNameThatLibfuseDidNotLookUpIsRefused() throws IOException {
        Files.writeString(root.resolve("mine.txt"), "mine");
        tree.requestStarts();
        assertThatThrownBy(() -> tree.rename("/mine.txt", KEPT)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("Operation not permitted");
        assertThat(Files.readString(root.resolve("mine.txt"))).isEqualTo("mine");
    }
}
