package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A folder whose listing fails (its storage folder not delivered yet by a sync client), asked for
 * through Milton's PROPFIND (a property only Milton answers): 500, and no log line names the folder.
 * The vault's folder streams list when iterated, so the failure comes as a DirectoryIteratorException,
 * which {@link FolderMembers} turns back into its IOException for the nameless wrapper (session 40's
 * review found the folder's name logged at ERROR by Milton).
 */
class ListingFailureThroughMiltonTest {
    private static final String MILTONS = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop><D:quota-used-bytes/></D:prop></D:propfind>";

    @TempDir
    Path tmp;

    @Test
    void aFolderWhoseListingFailsLogsNoCleartextNameThroughMilton() throws Exception {
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        int status;
        try (ServedVault v = new ServedVault(tmp)) {
            Path vault = tmp.resolve("vault");
            Set<Path> before = storageFolders(vault);
            Path folder = Files.createDirectory(v.root.resolve("SecretTaxFolder"));
            Files.writeString(folder.resolve("member.txt"), "member");
            Set<Path> made = storageFolders(vault);
            made.removeAll(before);
            assertThat(made).hasSize(1);
            try (Stream<Path> all = Files.walk(made.iterator().next())) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p); // the sync client has not delivered the storage folder yet
                }
            }
            events.start();
            root.addAppender(events);
            status = new DavClient(v.url()).send("PROPFIND", "/SecretTaxFolder/", MILTONS, "Depth", "1",
                    "Content-Type", "application/xml").statusCode();
            Thread.sleep(200); // Milton's filter logs after the answer
        } finally {
            root.detachAppender(events);
        }
        for (ILoggingEvent e : events.list) {
            String text = e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(e.getThrowableProxy()));
            if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
                assertThat(text).as("a WARN event").doesNotContain("SecretTax");
            }
        }
        assertThat(status).isEqualTo(500);
    }

    private static Set<Path> storageFolders(Path vault) throws java.io.IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"), 2)) {
            return s.filter(p -> vault.resolve("d").relativize(p).getNameCount() == 2).collect(Collectors.toCollection(HashSet::new));
        }
    }
}
