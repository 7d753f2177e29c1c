package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The payload probe of {@link PathMapper#typeOf}: whichever way it asks (java.io first on the default
 * file system for a payload expected absent, NIO otherwise), only a regular file itself counts, never
 * a link to one, a folder, or nothing.
 */
class PayloadProbeTest {
    @TempDir
    Path tmp;

    @Test
    void onlyARegularFileItselfIsAPayloadOnTheDefaultFileSystem() throws IOException {
        check(tmp);
    }

    @Test
    void onlyARegularFileItselfIsAPayloadOnAnotherFileSystem() throws IOException {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
            check(Files.createDirectory(jimfs.getPath("/t")));
        }
    }

    private static void check(Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("dir.c9r"), "id");
        Path folder = Files.createDirectory(dir.resolve("folder.c9r"));
        Path linkToFile = Files.createSymbolicLink(dir.resolve("link.c9r"), file);
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.c9r"), dir.resolve("nothing"));
        for (boolean probablyAbsent : new boolean[] {false, true}) {
            assertThat(PathMapper.isRegularFile(file, probablyAbsent)).isTrue();
            assertThat(PathMapper.isRegularFile(folder, probablyAbsent)).isFalse();
            assertThat(PathMapper.isRegularFile(linkToFile, probablyAbsent)).isFalse();
            assertThat(PathMapper.isRegularFile(dangling, probablyAbsent)).isFalse();
            assertThat(PathMapper.isRegularFile(dir.resolve("symlink.c9r"), probablyAbsent)).isFalse();
        }
    }
}
