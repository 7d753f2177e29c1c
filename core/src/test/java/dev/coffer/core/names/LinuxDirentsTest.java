package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names and types read with getdents64 are what the JDK lists and what a stat of each item says. */
class LinuxDirentsTest {
    @TempDir
    Path tmp;

    @Test
    void onLinuxFoldersAreReadNatively() {
        boolean linux = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")
                && List.of("amd64", "aarch64").contains(System.getProperty("os.arch"));
        assertThat(LinuxDirents.available()).isEqualTo(linux);
    }

    /** More names than one 32 KiB read holds, and every kind of item. */
    @Test
    void aLargeFolderGivesEveryNameWithItsKind() throws IOException {
        Path folder = Files.createDirectory(tmp.resolve("storage"));
        Map<String, StorageItem.Kind> expected = new HashMap<>();
        for (int i = 0; i < 1500; i++) {
            String name = "aGVsbG8gd29ybGQgdGhpcyBpcyBhIG5hbWU" + i + ".c9r";
            Files.createFile(folder.resolve(name));
            expected.put(name, StorageItem.Kind.FILE);
        }
        for (int i = 0; i < 20; i++) {
            Files.createDirectory(folder.resolve("folder" + i + ".c9r"));
            expected.put("folder" + i + ".c9r", StorageItem.Kind.FOLDER);
        }
        Files.createSymbolicLink(folder.resolve("link-to-file.c9r"), folder.resolve("aGVsbG8gd29ybGQgdGhpcyBpcyBhIG5hbWU0.c9r"));
        Files.createSymbolicLink(folder.resolve("link-to-folder.c9r"), folder.resolve("folder0.c9r"));
        Files.createSymbolicLink(folder.resolve("dangling.c9r"), folder.resolve("nothing"));
        expected.put("link-to-file.c9r", StorageItem.Kind.OTHER);
        expected.put("link-to-folder.c9r", StorageItem.Kind.OTHER);
        expected.put("dangling.c9r", StorageItem.Kind.OTHER);

        List<StorageItem> read = LinuxDirents.read(folder);

        assertThat(read).isNotNull();
        assertThat(read.stream().collect(Collectors.toMap(StorageItem::name, StorageItem::kind))).isEqualTo(expected);
        assertThat(StorageItem.sorted(folder)).isEqualTo(sortedBy(read));
        assertThat(StorageItem.sorted(folder).stream().map(StorageItem::name).toList())
                .isEqualTo(StorageItem.sortedThroughJdk(folder).stream().map(StorageItem::name).toList());
    }

    @Test
    void anEmptyFolderHasNoItems() throws IOException {
        assertThat(LinuxDirents.read(Files.createDirectory(tmp.resolve("empty")))).isEmpty();
    }

    /** Names that are not ASCII are decoded by the JDK, as they always were. */
    @Test
    void aNameThatIsNotAsciiIsLeftToTheJdk() throws IOException {
        Path folder = Files.createDirectory(tmp.resolve("storage"));
        Files.createFile(folder.resolve("plain.c9r"));
        if (!canEncode("Übersicht.txt")) {
            // The platform's charset (a C locale's ASCII) cannot name it: the JDK cannot either.
            assertThatThrownBy(() -> folder.resolve("Übersicht.txt")).isInstanceOf(InvalidPathException.class);
            return;
        }
        Files.createFile(folder.resolve("Übersicht.txt"));

        assertThat(LinuxDirents.read(folder)).isNull();
        assertThat(StorageItem.sorted(folder)).extracting(StorageItem::name)
                .containsExactly("plain.c9r", "Übersicht.txt");
        assertThat(StorageItem.sorted(folder)).extracting(StorageItem::kind).containsOnly(StorageItem.Kind.UNKNOWN);
    }

    /** A vault below a folder whose name is not ASCII (a home folder "jörg") is read natively all the same. */
    @Test
    void aFolderWhosePathIsNotAsciiIsReadNatively() throws IOException {
        if (!canEncode("jörg")) {
            assertThatThrownBy(() -> tmp.resolve("jörg")).isInstanceOf(InvalidPathException.class);
            return;
        }
        Path folder = Files.createDirectories(tmp.resolve("jörg").resolve("storage"));
        Files.createFile(folder.resolve("a.c9r"));

        assertThat(LinuxDirents.read(folder)).containsExactly(new StorageItem("a.c9r", StorageItem.Kind.FILE));
    }

    /** The JDK reports the failure, with its usual exception. */
    @Test
    void aMissingFolderIsReportedByTheJdk() {
        Path missing = tmp.resolve("missing");

        assertThat(LinuxDirents.read(missing)).isNull();
        assertThatThrownBy(() -> StorageItem.sorted(missing)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aFileIsNotAFolder() throws IOException {
        Path file = Files.createFile(tmp.resolve("file"));

        assertThat(LinuxDirents.read(file)).isNull();
        assertThatThrownBy(() -> StorageItem.sorted(file)).isInstanceOf(NotDirectoryException.class);
    }

    @Test
    void anotherFileSystemIsListedThroughTheJdk() throws IOException {
        try (FileSystem memory = Jimfs.newFileSystem(Configuration.unix())) {
            Path folder = Files.createDirectory(memory.getPath("/storage"));
            Files.createFile(folder.resolve("b.c9r"));
            Files.createDirectory(folder.resolve("a.c9r"));

            assertThat(LinuxDirents.read(folder)).isNull();
            assertThat(StorageItem.sorted(folder)).containsExactly(
                    new StorageItem("a.c9r", StorageItem.Kind.UNKNOWN), new StorageItem("b.c9r", StorageItem.Kind.UNKNOWN));
        }
    }

    private static List<StorageItem> sortedBy(List<StorageItem> items) {
        return items.stream().sorted(Comparator.comparing(StorageItem::name, Utf8Order.COMPARATOR)).toList();
    }

    private static boolean canEncode(String s) {
        Charset jnu = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        return jnu.newEncoder().canEncode(s);
    }
}
