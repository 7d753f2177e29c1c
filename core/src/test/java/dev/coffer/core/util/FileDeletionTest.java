package dev.coffer.core.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting a payload: the file goes, on any file system; a failure throws NIO's exception for it. */
class FileDeletionTest {
    @TempDir
    Path tmp;

    @Test
    void deletesAFileOnTheDefaultFileSystemAndElsewhere() throws IOException {
        Path f = Files.writeString(tmp.resolve("f"), "x");
        FileDeletion.deleteRegularFile(f);
        assertThat(f).doesNotExist();
        try (FileSystem memory = Jimfs.newFileSystem(Configuration.unix())) {
            Path g = Files.writeString(memory.getPath("/g"), "y");
            FileDeletion.deleteRegularFile(g);
            assertThat(g).doesNotExist();
        }
    }

    @Test
    void ifExistsDeletesAFileAndSaysWhetherOneWasThere() throws IOException {
        Path f = Files.writeString(tmp.resolve("f"), "x");
        assertThat(FileDeletion.deleteRegularFileIfExists(f)).isTrue();
        assertThat(f).doesNotExist();
        assertThat(FileDeletion.deleteRegularFileIfExists(f)).isFalse();
        try (FileSystem memory = Jimfs.newFileSystem(Configuration.unix())) {
            Path g = Files.writeString(memory.getPath("/g"), "y");
            assertThat(FileDeletion.deleteRegularFileIfExists(g)).isTrue();
            assertThat(FileDeletion.deleteRegularFileIfExists(g)).isFalse();
        }
        Path full = Files.createDirectory(tmp.resolve("full"));
        Files.writeString(full.resolve("inside"), "z");
        assertThatThrownBy(() -> FileDeletion.deleteRegularFileIfExists(full)).isInstanceOf(DirectoryNotEmptyException.class);
        assertThat(full.resolve("inside")).exists();
    }

    @Test
    void aFailureSaysWhy() throws IOException {
        assertThatThrownBy(() -> FileDeletion.deleteRegularFile(tmp.resolve("missing")))
                .isInstanceOf(NoSuchFileException.class);
        Path full = Files.createDirectory(tmp.resolve("full"));
        Files.writeString(full.resolve("inside"), "z");
        assertThatThrownBy(() -> FileDeletion.deleteRegularFile(full)).isInstanceOf(DirectoryNotEmptyException.class);
        assertThat(full.resolve("inside")).exists();
    }
}
