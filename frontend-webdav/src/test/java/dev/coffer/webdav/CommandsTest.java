package dev.coffer.webdav;

import static dev.coffer.core.testing.Processes.deadWithin5s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Commands}: a command that outlives its time limit is killed with the processes it started
 * (as util-linux {@code mount} starts {@code mount.davfs}): a child that would create a marker
 * after the limit is dead when {@code run} returns and never creates it; the input reaches the
 * command; a failure's output is in the error.
 */
class CommandsTest {
    @TempDir
    Path tmp;

    @Test
    void aTimedOutCommandIsKilledWithTheChildrenItStarted() throws Exception {
        Path marker = tmp.resolve("late-mount");
        Path childPid = tmp.resolve("child.pid");
        Path script = tmp.resolve("fake-mount");
        // the child stands for a slow mount.davfs: it would "mount" (create the marker) after the limit
        Files.writeString(script, "#!/bin/sh\n(sleep 3; touch '" + marker + "') &\necho $! > '" + childPid + "'\nsleep 100\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();

        long started = System.nanoTime();
        assertThatThrownBy(() -> Commands.run(List.of(script.toString()), Map.of(), null, 1))
                .isInstanceOf(IOException.class).hasMessageContaining("did not finish within 1 s");
        assertThat(System.nanoTime() - started).as("run returns soon after the limit").isLessThan(TimeUnit.SECONDS.toNanos(1 + Commands.KILL_WAIT_SECONDS));

        long pid = Long.parseLong(Files.readString(childPid).trim());
        assertThat(deadWithin5s(pid)).as("the child the command started is dead").isTrue();
        Thread.sleep(4000); // past the moment the child would have created the marker
        assertThat(marker).as("created by the child after the time limit").doesNotExist();
    }

    @Test
    void theInputReachesTheCommandAndAFailureCarriesItsOutput() throws Exception {
        assertThat(Commands.run(List.of("cat"), Map.of(), "user\npassword\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 10))
                .isEqualTo("user\npassword");
        assertThatThrownBy(() -> Commands.run(List.of("sh", "-c", "echo refused; exit 3")))
                .isInstanceOf(IOException.class).hasMessage("sh failed (exit 3): refused");
    }
}
