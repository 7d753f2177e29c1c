package dev.coffer.app.vaults;

import static dev.coffer.core.testing.LoopbackPorts.accepts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.webdav.WebDavServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WebDavMounter} when the OS mount throws a RuntimeException or an Error (through the
 * package-private seam) instead of an IOException: the failure reaches the caller, and the
 * credentialed server started for the mount is closed (its port accepts no connection; closing is
 * what wipes the credential, see frontend-webdav's CredentialTest) rather than left running.
 */
class WebDavMounterFailureTest {
    @TempDir
    Path tmp;

    @Test
    void aRuntimeExceptionFromTheOsMountClosesTheCredentialedServer() throws Exception {
        assertServerClosedAfter(new IllegalStateException("OsMount failed unexpectedly"));
    }

    @Test
    void anErrorFromTheOsMountClosesTheCredentialedServer() throws Exception {
        assertServerClosedAfter(new StackOverflowError("OsMount failed unexpectedly"));
    }

    private void assertServerClosedAfter(Throwable failure) throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        AtomicReference<WebDavServer> mounted = new AtomicReference<>();
        AtomicReference<Boolean> listening = new AtomicReference<>();
        WebDavMounter mounter = new WebDavMounter(true, server -> {
            mounted.set(server);
            listening.set(accepts(server.port()));
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            throw (Error) failure;
        });

        assertThatThrownBy(() -> mounter.mount(root, new MountRequest("v", null, false, 0))).isSameAs(failure);

        WebDavServer server = mounted.get();
        assertThat(server).as("the OS mount was tried (Linux)").isNotNull();
        assertThat(server.requiresCredential()).isTrue();
        assertThat(listening.get()).as("the server ran while mounting").isTrue();
        assertThat(accepts(server.port())).as("port " + server.port() + " closed after the failed mount").isFalse();
    }
}
