package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paths from a directory stream carry the entry the listing found (so their stats skip encrypting
 * the name): that hint must never make a stat answer differently from a fresh lookup, whatever
 * changed since the listing, through the vault or in the ciphertext underneath.
 */
class ListedPathsTest {
    @TempDir
    Path tmp;

    private CofferFileSystem open() throws IOException {
        return CofferFileSystems.create(tmp.resolve("vault"), "listed paths".toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    private static Path only(Path dir) throws IOException {
        List<Path> children = list(dir);
        assertThat(children).hasSize(1);
        return children.get(0);
    }

    @Test
    void aListedPathEqualsTheSamePathMadeByHandAndStatsTheSame() throws IOException {
        try (CofferFileSystem fs = open()) {
            Path made = fs.getPath("/folder/file.txt");
            Files.createDirectories(made.getParent());
            Files.writeString(made, "five!");
            Path listed = only(made.getParent());
            assertThat(listed).isEqualTo(made).hasSameHashCodeAs(made);
            BasicFileAttributes a = Files.readAttributes(listed, BasicFileAttributes.class);
            BasicFileAttributes b = Files.readAttributes(made, BasicFileAttributes.class);
            assertThat(a.size()).isEqualTo(5).isEqualTo(b.size());
            assertThat(a.isRegularFile()).isTrue();
            assertThat(a.lastModifiedTime()).isEqualTo(b.lastModifiedTime());
            assertThat(a.fileKey()).isEqualTo(b.fileKey());
        }
    }

    @Test
    void aFileDeletedSinceTheListingIsGone() throws IOException {
        try (CofferFileSystem fs = open()) {
            Path file = Files.writeString(fs.getPath("/file.txt"), "x");
            Path listed = only(fs.getPath("/"));
            Files.delete(file);
            assertThatThrownBy(() -> Files.readAttributes(listed, BasicFileAttributes.class))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }

    @Test
    void aFileReplacedByAFolderSinceTheListingStatsAsAFolder() throws IOException {
        try (CofferFileSystem fs = open()) {
            Path file = Files.writeString(fs.getPath("/name"), "x");
            Path listed = only(fs.getPath("/"));
            Files.delete(file);
            Files.createDirectory(file);
            assertThat(Files.readAttributes(listed, BasicFileAttributes.class).isDirectory()).isTrue();
        }
    }

    @Test
    void aFileInAFolderMovedSinceTheListingIsGoneFromTheOldPath() throws IOException {
        try (CofferFileSystem fs = open()) {
            Path folder = Files.createDirectory(fs.getPath("/a"));
            Files.writeString(folder.resolve("file.txt"), "x");
            Path listed = only(folder);
            Files.move(folder, fs.getPath("/b"));
            assertThatThrownBy(() -> Files.readAttributes(listed, BasicFileAttributes.class))
                    .isInstanceOf(NoSuchFileException.class);
            Files.createDirectory(folder); // a new, empty folder of the same name: still not there
            assertThatThrownBy(() -> Files.readAttributes(listed, BasicFileAttributes.class))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }

    @Test
    void aCiphertextFileChangedUnderneathStatsItsNewSize() throws IOException {
        try (CofferFileSystem fs = open()) {
            Files.writeString(fs.getPath("/file.txt"), "short");
            Path listed = only(fs.getPath("/"));
            Path replacement = fs.getPath("/other.txt");
            Files.writeString(replacement, "a longer content than before");
            // A sync client puts another version of the file in place, underneath the vault.
            Path ciphertextDir = tmp.resolve("vault");
            Path oldCiphertext;
            Path newCiphertext;
            try (Stream<Path> s = Files.walk(ciphertextDir)) {
                List<Path> files = s.filter(p -> p.toString().endsWith(".c9r") && Files.isRegularFile(p)
                        && !p.getFileName().toString().equals("dirid.c9r")).toList();
                assertThat(files).hasSize(2);
                long shortSize = Files.size(files.get(0));
                oldCiphertext = shortSize < Files.size(files.get(1)) ? files.get(0) : files.get(1);
                newCiphertext = oldCiphertext == files.get(0) ? files.get(1) : files.get(0);
            }
            long grown = Files.size(newCiphertext);
            Files.write(oldCiphertext, new byte[(int) grown]);
            assertThat(Files.readAttributes(listed, BasicFileAttributes.class).size())
                    .isEqualTo(Files.readAttributes(replacement, BasicFileAttributes.class).size());
        }
    }

    @Test
    void pathsListedFromARelativeOrUnnormalizedFolderStatCorrectly() throws IOException {
        try (CofferFileSystem fs = open()) {
            Files.createDirectory(fs.getPath("/a"));
            Files.writeString(fs.getPath("/a/file.txt"), "abc");
            Path listed = only(fs.getPath("/a/../a"));
            assertThat(listed.toString()).isEqualTo("/a/../a/file.txt");
            assertThat(Files.readAttributes(listed, BasicFileAttributes.class).size()).isEqualTo(3);
        }
    }
}
