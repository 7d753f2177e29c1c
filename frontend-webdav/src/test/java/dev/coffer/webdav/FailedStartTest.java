package dev.coffer.webdav;

import static dev.coffer.core.testing.LoopbackPorts.accepts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link WebDavServer} whose start fails after Jetty is already listening (a RuntimeException or an
 * Error from what follows {@code server.start()}, thrown here by the package-private hook): the
 * failure reaches the caller, the port no longer accepts connections, and the credential is wiped
 * (it accepts nothing and hands nothing out).
 */
class FailedStartTest {
    @TempDir
    Path tmp;

    @Test
    void aRuntimeExceptionAfterJettyStartedStopsItAndWipesTheCredential() throws Exception {
        assertStoppedAndWipedAfter(new IllegalStateException("after start"));
    }

    @Test
    void anErrorAfterJettyStartedStopsItAndWipesTheCredential() throws Exception {
        assertStoppedAndWipedAfter(new OutOfMemoryError("after start"));
    }

    private void assertStoppedAndWipedAfter(Throwable failure) throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        DavCredential credential = DavCredential.random();
        String password = new String(credential.clientInput(), StandardCharsets.US_ASCII).split("\n")[1];
        String header = "Basic " + Base64.getEncoder().encodeToString(("coffer:" + password).getBytes(StandardCharsets.US_ASCII));
        assertThat(credential.accepts(header)).as("the credential works before the start").isTrue();
        AtomicInteger listening = new AtomicInteger();

        assertThatThrownBy(() -> WebDavServer.start(root, 0, credential, port -> {
            listening.set(port);
            assertThat(accepts(port)).as("Jetty listens when the hook runs").isTrue();
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            throw (Error) failure;
        })).isSameAs(failure);

        assertThat(listening.get()).isPositive();
        assertThat(accepts(listening.get())).as("port " + listening.get() + " closed after the failed start").isFalse();
        assertThat(credential.accepts(header)).as("the credential is wiped").isFalse();
        assertThatThrownBy(credential::clientInput).isInstanceOf(IllegalStateException.class);
    }
}
