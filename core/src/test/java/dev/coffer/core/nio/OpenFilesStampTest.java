package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open-file registry trusts the file key a lookup read only while none of Coffer's renames or
 * deletes ran since that lookup: else it would register a handle under the key of a file the path
 * no longer names, and a later open would make a second open file on the one it does name.
 */
class OpenFilesStampTest {
    @TempDir
    Path tmp;

    @Test
    void aKeyReadBeforeARenameOverThePathIsNotTrusted() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Files.writeString(fs.getPath("/a.txt"), "a");
            Path ciphertext = TestVaults.onlyCiphertextFile(tmp.resolve("v"));
            long stamp = fs.openFiles.stamp();
            Object staleKey = key(ciphertext); // as a lookup would read it, just before...
            Files.writeString(fs.getPath("/b.txt"), "b");
            Files.move(fs.getPath("/b.txt"), fs.getPath("/a.txt"), StandardCopyOption.REPLACE_EXISTING); // ...this rename

            assertThat(fs.openFiles.stamp()).isNotEqualTo(stamp);
            OpenFiles.Handle h = fs.openFiles.open(ciphertext, EnumSet.of(StandardOpenOption.READ), "/a.txt", false, staleKey, stamp);

            assertThat(h.fileKey).isEqualTo(key(ciphertext)).isNotEqualTo(staleKey);
        }
    }

    @Test
    void withoutAChangeSinceTheLookupItsKeyIsTheHandlesAndOpensShareIt() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Files.writeString(fs.getPath("/a.txt"), "a");
            Path ciphertext = TestVaults.onlyCiphertextFile(tmp.resolve("v"));
            long stamp = fs.openFiles.stamp();
            Object key = key(ciphertext);

            OpenFiles.Handle first = fs.openFiles.open(ciphertext, EnumSet.of(StandardOpenOption.READ), "/a.txt", false, key, stamp);
            OpenFiles.Handle second = fs.openFiles.open(ciphertext, EnumSet.of(StandardOpenOption.READ), "/a.txt", false, key, stamp);

            assertThat(first.fileKey).isEqualTo(key);
            assertThat(second).isSameAs(first);
        }
    }

    private static Object key(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    }
}
