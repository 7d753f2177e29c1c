package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OpenFilesUnder} on the real /proc: this JVM's own files, open for writing, for reading, elsewhere. */
class OpenFilesUnderTest {
    @TempDir
    Path tmp;

    private final OpenFilesUnder writers = new OpenFilesUnder(Path.of("/proc"));
    private final long self = ProcessHandle.current().pid();

    @Test
    void findsAProcessWritingInsideTheFolderOnly() throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("mount"));
        Path elsewhere = Files.createDirectories(tmp.resolve("mount-other"));
        Files.writeString(folder.resolve("read.txt"), "r");
        FileChannel reading = FileChannel.open(folder.resolve("read.txt"), StandardOpenOption.READ);
        FileChannel writingElsewhere = FileChannel.open(elsewhere.resolve("w.txt"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            assertThat(writers.writers(folder)).as("a reader, and a writer in a folder whose name only starts the same").doesNotContain(self);
        } finally {
            reading.close();
            writingElsewhere.close();
        }
        FileChannel writing = FileChannel.open(folder.resolve("w.txt"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            assertThat(writers.writers(folder)).contains(self);
        } finally {
            writing.close();
        }
        FileChannel both = FileChannel.open(folder.resolve("rw.txt"), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            assertThat(writers.writers(folder)).contains(self);
        } finally {
            both.close();
        }
        assertThat(writers.writers(folder)).doesNotContain(self);
    }

    @Test
    void anUnreadableProcIsNobody() {
        assertThat(new OpenFilesUnder(tmp.resolve("no-proc")).writers(tmp)).isEmpty();
    }
}
