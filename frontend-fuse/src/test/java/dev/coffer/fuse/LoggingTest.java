package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Errors map to an errno silently: nothing at WARN, and no cleartext name even at DEBUG. */
class LoggingTest {
    private static final String SECRET = "tax-return-of-alice";

    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private Level level;

    @BeforeEach
    void capture() {
        level = root.getLevel();
        root.setLevel(Level.DEBUG);
        events.start();
        root.addAppender(events);
    }

    @AfterEach
    void release() throws Exception {
        try {
            mounts.close();
        } finally {
            root.detachAppender(events);
            root.setLevel(level);
        }
    }

    @Test
    void failingOperationsLogNoNamesAndNothingAtWarn() throws IOException {
        Path backing = Files.createDirectory(tmp.resolve("backing"));
        Path mnt = mounts.mount(backing, tmp.resolve("mnt")).mountPoint();
        Files.writeString(mnt.resolve(SECRET), "x");
        assertThatThrownBy(() -> Files.readString(mnt.resolve(SECRET + "-missing"))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> Files.createDirectory(mnt.resolve(SECRET))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> Files.readString(mnt.resolve(SECRET + "/below"))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> Files.delete(mnt.resolve(SECRET + "-dir/x"))).isInstanceOf(IOException.class);
        assertThat(events.list).as("the failures were logged at DEBUG")
                .anyMatch(e -> e.getLevel() == Level.DEBUG && e.getLoggerName().equals(Calls.class.getName()));
        assertThat(events.list).noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
        assertThat(events.list).noneMatch(e -> e.getFormattedMessage().contains(SECRET));
    }
}
