package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import jnr.ffi.Memory;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.Timespec;

/** utimens's UTIME_NOW and UTIME_OMIT, as Linux's and as macOS's C library spell them. */
class UtimeRequestTest {
    private static final long LINUX_NOW = (1L << 30) - 1;
    private static final long LINUX_OMIT = (1L << 30) - 2;
    private static final long MACOS_NOW = -1;
    private static final long MACOS_OMIT = -2;
    private static final Instant GIVEN = Instant.parse("2002-01-01T00:00:00.000000123Z");
    private static final Instant OLD = Instant.parse("1999-06-01T12:00:00Z");

    @TempDir
    Path root;
    private AttributeOps attributes;
    private Path file;

    @BeforeEach
    void fileWithOldTimes() throws IOException {
        attributes = new AttributeOps(new Backing(root, 0, 0));
        file = Files.writeString(root.resolve("f"), "content");
        Files.setLastModifiedTime(file, FileTime.from(OLD));
        Files.setAttribute(file, "lastAccessTime", FileTime.from(OLD));
    }

    @Test
    void eachSpellingIsRecognised() {
        assertThat(UtimeRequest.of(LINUX_NOW)).isEqualTo(UtimeRequest.NOW);
        assertThat(UtimeRequest.of(MACOS_NOW)).isEqualTo(UtimeRequest.NOW);
        assertThat(UtimeRequest.of(LINUX_OMIT)).isEqualTo(UtimeRequest.OMIT);
        assertThat(UtimeRequest.of(MACOS_OMIT)).isEqualTo(UtimeRequest.OMIT);
        assertThat(UtimeRequest.of(0)).isEqualTo(UtimeRequest.SET);
        assertThat(UtimeRequest.of(999_999_999)).isEqualTo(UtimeRequest.SET);
    }

    @Test
    void linuxNowAndOmit() throws IOException {
        attributes.utimens("/f", timespec(0, LINUX_OMIT), timespec(0, LINUX_NOW));
        assertThat(accessTime()).isEqualTo(OLD);
        assertThat(modifiedTime()).isAfter(Instant.now().minusSeconds(60));
    }

    @Test
    void macOSNowAndOmit() throws IOException {
        attributes.utimens("/f", timespec(0, MACOS_NOW), timespec(0, MACOS_OMIT));
        assertThat(accessTime()).as("now, not a nanosecond before 1970").isAfter(Instant.now().minusSeconds(60));
        assertThat(modifiedTime()).as("left alone").isEqualTo(OLD);
    }

    @Test
    void aGivenTimeIsSetToTheNanosecond() throws IOException {
        attributes.utimens("/f", timespec(GIVEN.getEpochSecond(), GIVEN.getNano()), timespec(GIVEN.getEpochSecond(), MACOS_OMIT));
        assertThat(accessTime()).isEqualTo(GIVEN);
        assertThat(modifiedTime()).isEqualTo(OLD);
    }

    private static Timespec timespec(long seconds, long nanoseconds) {
        Timespec ts = Timespec.of(Memory.allocateDirect(Runtime.getSystemRuntime(), 16));
        ts.tv_sec.set(seconds);
        ts.tv_nsec.set(nanoseconds);
        return ts;
    }

    private Instant accessTime() throws IOException {
        return ((FileTime) Files.getAttribute(file, "lastAccessTime", LinkOption.NOFOLLOW_LINKS)).toInstant();
    }

    private Instant modifiedTime() throws IOException {
        return Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toInstant();
    }
}
