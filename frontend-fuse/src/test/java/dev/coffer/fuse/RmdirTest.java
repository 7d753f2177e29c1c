package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * rmdir on every kind of backing (a vault, a plain folder, Jimfs): an empty folder goes; a file put
 * under the name since the kernel's lookup (a sync client) is refused with ENOTDIR and kept, as is a
 * link to a folder (the errno, whatever exception each backing gives); a folder that holds something is refused with ENOTEMPTY and kept.
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
            for (String notFolder : List.of("/d", "/link")) {
                assertThatThrownBy(() -> tree.rmdir(notFolder)).as(root + notFolder)
                        .satisfies(e -> assertThat(Errno.of(e)).isEqualTo(ErrorCodes.ENOTDIR()));
            }
            assertThat(Files.readString(root.resolve("d"))).isEqualTo("data from another device");
            assertThat(Files.isSymbolicLink(root.resolve("link"))).isTrue();
            assertThat(Files.isDirectory(root.resolve("target"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        }
    }

    /**
     * In a vault whose caches know the folder (listed and stat-ed through the mount), a sync client
     * replaces its ciphertext entry by a file's: rmdir finds the file (ENOTDIR) and deletes nothing.
     */
    @Test
    void aFolderReplacedByAFileUnderneathIsNotDeleted() throws IOException {
        Path root = roots().get(0);
        Files.createDirectory(root.resolve("d"));
        Files.writeString(root.resolve("e"), "the file another device put there");
        TreeOps tree = tree(root);
        tree.readdir("/", null, (buf, name, st, off) -> 0);
        new AttributeOps(new Backing(root, 0, 0)).getattr("/d", new FileStat(Runtime.getSystemRuntime()));
        Path folderEntry;
        Path fileEntry;
        try (Stream<Path> s = Files.list(rootStorage())) {
            List<Path> entries = s.collect(Collectors.toList());
            folderEntry = entries.stream().filter(Files::isDirectory).findFirst().orElseThrow();
            fileEntry = entries.stream().filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().equals("dirid.c9r")).findFirst().orElseThrow();
        }
        List<Path> inside;
        try (Stream<Path> s = Files.list(folderEntry)) {
            inside = s.collect(Collectors.toList());
        }
        for (Path p : inside) {
            Files.delete(p);
        }
        Files.delete(folderEntry);
        Files.move(fileEntry, folderEntry); // the file's ciphertext now under the folder's name

        assertThatThrownBy(() -> tree.rmdir("/d")).isInstanceOf(NotDirectoryException.class);
        assertThat(Files.isRegularFile(folderEntry)).isTrue();
        assertThat(Files.readString(root.resolve("d"))).isEqualTo("the file another device put there");
    }

    /** The vault's root storage folder: the one holding entries ({@code *.c9r}) of the two names made. */
    private Path rootStorage() throws IOException {
        try (Stream<Path> s = Files.walk(tmp.resolve("vault/d"), 2)) {
            return s.filter(p -> tmp.resolve("vault/d").relativize(p).getNameCount() == 2)
                    .filter(p -> {
                        try (Stream<Path> in = Files.list(p)) {
                            return in.filter(x -> x.getFileName().toString().endsWith(".c9r") && !x.getFileName().toString().equals("dirid.c9r")).count() == 2;
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .findFirst().orElseThrow();
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
