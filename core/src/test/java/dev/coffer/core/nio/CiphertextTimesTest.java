package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Times set on a ciphertext item end as the JDK's view with NOFOLLOW_LINKS leaves them. */
class CiphertextTimesTest {
    @TempDir
    Path tmp;

    private static final FileTime[] TIMES = {
        FileTime.from(Instant.ofEpochSecond(1_000_000_000L, 123_456_789)),
        FileTime.from(Instant.ofEpochSecond(0)),
        FileTime.from(Instant.ofEpochSecond(-86_400L * 365, 5)), // before 1970, with nanoseconds
        FileTime.from(Instant.parse("2199-12-31T23:59:59.999999999Z")),
    };

    @Test
    void eachTimeIsSetToTheNanosecond() throws IOException {
        Path f = Files.createFile(tmp.resolve("f"));
        for (FileTime m : TIMES) {
            for (FileTime a : TIMES) {
                CiphertextTimes.set(f, m, a, null);
                assertThat(times(f)).as("%s %s", m, a).containsExactly(m, a);
            }
        }
    }

    /**
     * A time beyond what fits in a long of nanoseconds goes to the JDK, which clamps it. (Before 1970
     * the JDK's own view fails with EINVAL on a time with nanoseconds and sets 1970 instead: not copied.)
     */
    @Test
    void aTimeTooFarOutEndsAsTheJdksViewLeavesIt() throws IOException {
        FileTime far = FileTime.from(Instant.MAX);
        Path ours = Files.createFile(tmp.resolve("ours"));
        Path jdks = Files.createFile(tmp.resolve("jdks"));
        CiphertextTimes.set(ours, far, TIMES[0], null);
        view(jdks).setTimes(far, TIMES[0], null);
        assertThat(times(ours)).isEqualTo(times(jdks));
    }

    @Test
    void aTimeLeftOutStaysAsItIs() throws IOException {
        Path f = Files.createFile(tmp.resolve("f"));
        FileTime first = TIMES[0];
        FileTime second = TIMES[1];
        CiphertextTimes.set(f, first, first, null);
        CiphertextTimes.set(f, second, null, null);
        assertThat(attributes(f).lastModifiedTime()).isEqualTo(second);
        assertThat(attributes(f).lastAccessTime()).isEqualTo(first);
        CiphertextTimes.set(f, null, second, null);
        assertThat(attributes(f).lastModifiedTime()).isEqualTo(second);
        assertThat(attributes(f).lastAccessTime()).isEqualTo(second);
        CiphertextTimes.set(f, null, null, null);
        assertThat(times(f)).containsExactly(second, second);
    }

    @Test
    void aLinkIsNotFollowed() throws IOException {
        Path target = Files.createFile(tmp.resolve("target"));
        view(target).setTimes(TIMES[1], TIMES[1], null);
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
        CiphertextTimes.set(link, TIMES[0], TIMES[0], null);
        assertThat(times(target)).containsExactly(TIMES[1], TIMES[1]);
        assertThat(attributes(link).lastModifiedTime()).isEqualTo(TIMES[0]);
    }

    @Test
    void aMissingItemFailsAsInTheJdk() {
        assertThatThrownBy(() -> CiphertextTimes.set(tmp.resolve("missing"), TIMES[0], TIMES[0], null))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("missing");
    }

    @Test
    void anotherFileSystemGetsItsOwnView() throws IOException {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
            Path f = Files.createFile(jimfs.getPath("/f"));
            CiphertextTimes.set(f, TIMES[0], TIMES[1], null);
            assertThat(times(f)).containsExactly(TIMES[0], TIMES[1]);
        }
    }

    private static BasicFileAttributeView view(Path p) {
        return Files.getFileAttributeView(p, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    }

    private static BasicFileAttributes attributes(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    private static FileTime[] times(Path p) throws IOException {
        BasicFileAttributes a = attributes(p);
        return new FileTime[] {a.lastModifiedTime(), a.lastAccessTime()};
    }
}
