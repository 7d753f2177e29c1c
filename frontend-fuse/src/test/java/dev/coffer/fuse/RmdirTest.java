package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rmdir on every kind of backing (a vault, a plain folder, Jimfs): an empty folder goes; a file put
 * under the name since the kernel's lookup (a sync client) is refused with ENOTDIR and kept, as is a
 * link to a folder; a folder that holds something is refused with ENOTEMPTY and kept.
 */
class RmdirTest {
    @TempDir
    Path tmp;
    private final List<FileSystem> opened = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (FileSystem fs : opened) {
            fs.close();
        }
    }

    private List<Path> roots() throws IOException {
        FileSystem vault = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(), VaultMountTest.FAST);
        FileSystem memory = Jimfs.newFileSystem(Configuration.unix());
        opened.add(vault);
        opened.add(memory);
        return List.of(vault.getPath("/"), Files.createDirectory(tmp.resolve("plain")), Files.createDirectory(memory.getPath("/m")));
    }

    private static TreeOps tree(Path root) {
        return new TreeOps(new Backing(root, 0, 0), NameForm.NFC, new ContentChanges());
    }

    @Test
    void anEmptyFolderIsRemoved() throws IOException {
        for (Path root : roots()) {
            Files.createDirectories(root.resolve("a/b"));
            tree(root).rmdir("/a/b");
            tree(root).rmdir("/a");
            assertThat(Files.exists(root.resolve("a"), LinkOption.NOFOLLOW_LINKS)).as(root.toString()).isFalse();
        }
    }

    @Test
    void aFileUnderTheNameIsRefusedAndKept() throws IOException {
        for (Path root : roots()) {
            Files.createDirectory(root.resolve("d"));
            Files.delete(root.resolve("d")); // a sync client replaced the folder by a file
            Files.writeString(root.resolve("d"), "data from another device");
            Files.createDirectory(root.resolve("target"));
            Files.createSymbolicLink(root.resolve("link"), root.getFileSystem().getPath("target"));
            TreeOps tree = tree(root);
            assertThatThrownBy(() -> tree.rmdir("/d")).as(root.toString()).isInstanceOf(NotDirectoryException.class);
            assertThatThrownBy(() -> tree.rmdir("/link")).as(root.toString()).isInstanceOf(NotDirectoryException.class);
            assertThat(Files.readString(root.resolve("d"))).isEqualTo("data from another device");
            assertThat(Files.isSymbolicLink(root.resolve("link"))).isTrue();
            assertThat(Files.isDirectory(root.resolve("target"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        }
    }

    @Test
    void aFolderThatHoldsSomethingIsRefusedAndKept() throws IOException {
        for (Path root : roots()) {
            Files.createDirectories(root.resolve("full/sub"));
            Files.writeString(root.resolve("full/f"), "f");
            TreeOps tree = tree(root);
            assertThatThrownBy(() -> tree.rmdir("/full")).as(root.toString()).isInstanceOf(DirectoryNotEmptyException.class);
            Files.delete(root.resolve("full/f"));
            assertThatThrownBy(() -> tree.rmdir("/full")).as(root.toString()).isInstanceOf(DirectoryNotEmptyException.class);
            assertThat(Files.isDirectory(root.resolve("full/sub"))).isTrue();
        }
    }
}
