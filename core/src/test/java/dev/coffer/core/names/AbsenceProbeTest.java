package dev.coffer.core.names;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AbsenceProbe} says "absent" exactly where the JDK's {@code lstat} would throw {@code
 * NoSuchFileException}, and nowhere else: a link, even a dangling one, is something, and any other
 * failure is left to the JDK.
 */
class AbsenceProbeTest {
    @TempDir
    Path tmp;

    @Test
    void answersOnLinux() {
        boolean linux = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")
                && List.of("amd64", "aarch64").contains(System.getProperty("os.arch"));
        assertThat(AbsenceProbe.available()).isEqualTo(linux);
    }

    @Test
    void onlyNothingAtAllIsAbsent() throws IOException {
        Path file = Files.writeString(tmp.resolve("file.c9r"), "x");
        Path folder = Files.createDirectory(tmp.resolve("folder.c9r"));
        Path link = Files.createSymbolicLink(tmp.resolve("link.c9r"), file);
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling.c9r"), tmp.resolve("nothing"));

        assertThat(AbsenceProbe.absent(tmp.resolve("missing.c9r"))).isTrue();
        assertThat(AbsenceProbe.absent(tmp.resolve("no-folder").resolve("missing.c9r"))).isTrue();
        assertThat(AbsenceProbe.absent(file)).isFalse();
        assertThat(AbsenceProbe.absent(folder)).isFalse();
        assertThat(AbsenceProbe.absent(link)).isFalse();
        assertThat(AbsenceProbe.absent(dangling)).isFalse();
        assertThat(AbsenceProbe.absent(folder.resolve("missing.c9r"))).isTrue();
    }

    @Test
    void agreesWithTheJdkOnEveryOutcome() throws IOException {
        Path file = Files.writeString(tmp.resolve("file.c9r"), "x");
        List<Path> paths = List.of(
                tmp.resolve("missing.c9r"), // ENOENT
                file, // there
                file.resolve("below-a-file.c9r"), // ENOTDIR: the JDK throws FileSystemException, not NoSuchFileException
                tmp.resolve("x".repeat(300)), // ENAMETOOLONG
                Path.of("/proc/self/fd/999999/x")); // ENOENT through a magic link
        for (Path p : paths) {
            boolean jdkSaysMissing;
            try {
                Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                jdkSaysMissing = false;
            } catch (java.nio.file.NoSuchFileException e) {
                jdkSaysMissing = true;
            } catch (IOException e) {
                jdkSaysMissing = false;
            }
            assertThat(AbsenceProbe.absent(p)).as(p.toString()).isEqualTo(jdkSaysMissing && AbsenceProbe.available());
        }
    }

    @Test
    void aFolderWhoseNameIsNotAsciiIsEncodedAsTheJdkWould() throws IOException {
        Path folder = Files.createDirectory(tmp.resolve("Tresor-\u00e9\u00df-\u6587"));
        Path file = Files.writeString(folder.resolve("file.c9r"), "x");
        assertThat(AbsenceProbe.absent(file)).isFalse();
        assertThat(AbsenceProbe.absent(folder.resolve("missing.c9r"))).isEqualTo(AbsenceProbe.available());
    }

    @Test
    void anotherFileSystemIsLeftToTheJdk() throws IOException {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
            assertThat(AbsenceProbe.absent(jimfs.getPath("/missing.c9r"))).isFalse();
        }
    }
}
