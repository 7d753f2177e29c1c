package dev.coffer.app.os;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The app's log: the user's alone (folder 0700, file 0600), and debug logging is Coffer's own, never
 * the libraries' (Jetty's DEBUG logs the WebDAV server's secret URL and the mount's credential).
 */
class LogFileTest {
    @TempDir
    Path tmp;

    @AfterEach
    void restore() {
        LogFile.setDebug(false);
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root && root.getAppender("file") != null) {
            root.getAppender("file").stop();
            root.detachAppender("file");
        }
    }

    @Test
    void theLogIsTheUsersAloneAndDebugIsCoffersOnly() throws Exception {
        Path config = Files.createDirectory(tmp.resolve("config"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        LogFile.start(config, true);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config.resolve(LogFile.NAME)))).isEqualTo("rw-------");
        assertThat(LoggerFactory.getLogger("dev.coffer.webdav.DavServlet").isDebugEnabled()).isTrue();
        assertThat(LoggerFactory.getLogger("org.eclipse.jetty.server.HttpChannel").isDebugEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("io.milton.http.HttpManager").isDebugEnabled()).isFalse();

        LogFile.setDebug(false);
        assertThat(LoggerFactory.getLogger("dev.coffer.webdav.DavServlet").isDebugEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("dev.coffer.webdav.DavServlet").isWarnEnabled()).isTrue();
    }
}
