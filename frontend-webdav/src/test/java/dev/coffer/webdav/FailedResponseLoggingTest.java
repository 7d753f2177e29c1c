package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A request that fails leaves nothing at WARN that names a file or carries the server's secret URL
 * segment: Jetty logs failures that reach it with the request's URI unless they are quiet. Here a GET
 * failing after its response started (a damaged file found half-way) and a PROPPATCH nested too deep
 * (it overflowed the stack).
 */
class FailedResponseLoggingTest {
    private static final String NAME = "Secret Tax Return.bin";

    @TempDir
    Path tmp;

    @Test
    void aResponseThatFailsAfterItStartedLogsNoNameAndNoSecretUrl() throws Exception {
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        String secretSegment;
        try (ServedVault v = new ServedVault(tmp)) {
            secretSegment = java.net.URI.create(v.url()).getPath().replace("/", "");
            assertThat(secretSegment).isNotEmpty();
            byte[] content = new byte[3 << 20];
            new java.util.Random(5).nextBytes(content);
            Files.write(v.root.resolve(NAME), content);
            damageTheMiddleOfTheLargestCiphertextFile(tmp.resolve("vault"));
            events.start();
            root.addAppender(events);
            DavClient dav = new DavClient(v.url());
            try {
                dav.send("GET", "/" + NAME.replace(" ", "%20"), (String) null);
            } catch (IOException aborted) {
                // the body ends early: the client sees the failure
            }
            Thread.sleep(200); // Jetty logs on its own thread after the abort
        } finally {
            root.detachAppender(events);
        }
        for (ILoggingEvent e : events.list) {
            if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
                String text = e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(e.getThrowableProxy()));
                assertThat(text).as("a WARN event").doesNotContain("Secret").doesNotContain("Tax");
                assertThat(text).doesNotContain(secretSegment);
            }
        }
    }

    @Test
    void aDeeplyNestedPropertyValueIsRefusedAndLogsNothingAtWarn() throws Exception {
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        String secretSegment;
        int status;
        try (ServedVault v = new ServedVault(tmp)) {
            secretSegment = java.net.URI.create(v.url()).getPath().replace("/", "");
            Files.writeString(v.root.resolve(NAME), "taxes");
            int depth = 120_000; // ~820 KiB, under the 1 MiB body limit: overflowed the serialiser's stack
            StringBuilder body = new StringBuilder("<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\">"
                    + "<D:set><D:prop><x:deep xmlns:x=\"urn:x\">");
            body.append("<a>".repeat(depth)).append("</a>".repeat(depth));
            body.append("</x:deep></D:prop></D:set></D:propertyupdate>");
            events.start();
            root.addAppender(events);
            DavClient dav = new DavClient(v.url());
            status = dav.send("PROPPATCH", "/" + NAME.replace(" ", "%20"), body.toString()).statusCode();
            Thread.sleep(200);
        } finally {
            root.detachAppender(events);
        }
        assertThat(status).as("a body nested deeper than %d levels", Xml.MAX_DEPTH).isEqualTo(400);
        for (ILoggingEvent e : events.list) {
            if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
                String text = e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(e.getThrowableProxy()));
                assertThat(text).as("a WARN event").doesNotContain("Secret").doesNotContain(secretSegment);
            }
        }
    }

    private static void damageTheMiddleOfTheLargestCiphertextFile(Path vault) throws IOException {
        Path largest;
        try (Stream<Path> files = Files.walk(vault.resolve("d"))) {
            largest = files.filter(Files::isRegularFile).max(Comparator.comparingLong(p -> p.toFile().length())).orElseThrow();
        }
        try (FileChannel ch = FileChannel.open(largest, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), ch.size() / 2);
        }
    }
}
