package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An rmdir refused as not empty changes nothing on disk, so the folder cache below it stays: git,
 * {@code rmdir -p} and the like try rmdir on every parent of a removed file, and each refusal would
 * otherwise cost a fresh {@code dir.c9r} read per folder level below it (session 40's review).
 */
class RefusedFolderDeleteKeepsCacheTest {
    @TempDir
    Path tmp;

    @Test
    void anRmdirRefusedAsNotEmptyKeepsTheFolderCache() throws IOException {
        RecordingFileSystem rec = new RecordingFileSystem();
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Path file = fs.getPath("/a/b/c/file");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "x");
            Files.readAttributes(file, BasicFileAttributes.class); // /a, /a/b, /a/b/c cached
            rec.reset();
            Files.readAttributes(file, BasicFileAttributes.class);
            int warmOpens = rec.opened.size();
            assertThatThrownBy(() -> Files.delete(fs.getPath("/a"))).isInstanceOf(DirectoryNotEmptyException.class);
            rec.reset();
            Files.readAttributes(file, BasicFileAttributes.class);
            assertThat(rec.opened).as("dir.c9r reads after an rmdir that changed nothing").hasSize(warmOpens);
        }
    }
}
