package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process started with SIGINT ignored (a shell's background job without job control, nohup) passes
 * that on to its children, and a JVM started so never installs a handler for it: a test that sends
 * SIGINT to a child would then wait in vain. Says so plainly instead of a bare timeout.
 */
final class SigintDisposition {
    private SigintDisposition() {}

    static void assertChildrenCanReceiveSigint() throws IOException {
        String ignored = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("SigIgn:")).findFirst().orElseThrow().substring(7).trim();
        boolean sigintIgnored = (Long.parseUnsignedLong(ignored, 16) & (1L << 1)) != 0; // bit of signal 2
        assertThat(sigintIgnored)
                .as("SIGINT is ignored in the test JVM (inherited: run the tests in the foreground, or from a shell with job control), so a child cannot be stopped with it")
                .isFalse();
    }
}
