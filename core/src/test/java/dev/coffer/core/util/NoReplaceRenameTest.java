package dev.coffer.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** renameat2 with RENAME_NOREPLACE: a free name is taken, a taken one is left alone, other stores fall back. */
class NoReplaceRenameTest {
    @TempDir
    Path tmp;

    @Test
    void renamesToAFreeName() throws IOException {
        Path from = Files.writeString(tmp.resolve("a"), "moved");
        assertThat(NoReplaceRename.rename(from, tmp.resolve("b"))).isEqualTo(NoReplaceRename.Outcome.RENAMED);
        assertThat(Files.exists(from)).isFalse();
        assertThat(Files.readString(tmp.resolve("b"))).isEqualTo("moved");
    }

    @Test
    void leavesATakenNameAndTheSourceAlone() throws IOException {
        Path from = Files.writeString(tmp.resolve("a"), "source");
        Path to = Files.writeString(tmp.resolve("b"), "created meanwhile");
        assertThat(NoReplaceRename.rename(from, to)).isEqualTo(NoReplaceRename.Outcome.TARGET_EXISTS);
        assertThat(Files.readString(from)).isEqualTo("source");
        assertThat(Files.readString(to)).isEqualTo("created meanwhile");

        Path dir = Files.createDirectory(tmp.resolve("d"));
        Path emptyDir = Files.createDirectory(tmp.resolve("e")); // rename(2) would replace an empty folder
        assertThat(NoReplaceRename.rename(dir, emptyDir)).isEqualTo(NoReplaceRename.Outcome.TARGET_EXISTS);
        assertThat(Files.isDirectory(dir)).isTrue();
    }

    @Test
    void anotherFileSystemIsLeftToTheCaller() throws IOException {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
            Path from = Files.writeString(jimfs.getPath("/a"), "x");
            assertThat(NoReplaceRename.rename(from, jimfs.getPath("/b"))).isEqualTo(NoReplaceRename.Outcome.NOT_DONE);
            assertThat(Files.exists(from)).isTrue();
        }
    }
}
