package dev.coffer.app.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Forwarding a second launch's arguments over the Unix-domain socket. */
class SingleInstanceTest {
    @TempDir
    Path config;

    @Test
    void withoutARunningInstanceNothingIsForwarded() throws Exception {
        assertThat(SingleInstance.forward(config, List.of("/v/vault.coffer"))).isFalse();
    }

    @Test
    void aSecondLaunchHandsItsArgumentsToTheFirst() throws Exception {
        LinkedBlockingQueue<List<String>> received = new LinkedBlockingQueue<>();
        SingleInstance first = SingleInstance.listen(config, received::add);
        try {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config.resolve(SingleInstance.SOCKET_NAME))))
                    .isEqualTo("rw-------");
            assertThat(SingleInstance.forward(config, List.of("/home/a/Dropbox/Taxes/vault.coffer"))).isTrue();
            assertThat(received.poll(10, TimeUnit.SECONDS)).containsExactly("/home/a/Dropbox/Taxes/vault.coffer");
            assertThat(SingleInstance.forward(config, List.of())).isTrue(); // a plain second start: just show the window
            assertThat(received.poll(10, TimeUnit.SECONDS)).isEmpty();
            assertThat(SingleInstance.forward(config, List.of("/ü/naïve path"))).isTrue();
            assertThat(received.poll(10, TimeUnit.SECONDS)).containsExactly("/ü/naïve path");
        } finally {
            first.close();
        }
        assertThat(config.resolve(SingleInstance.SOCKET_NAME)).doesNotExist();
        assertThat(SingleInstance.forward(config, List.of("x"))).isFalse();
    }

    @Test
    void aSocketLeftByACrashedInstanceIsReplaced() throws Exception {
        try (var stale = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            stale.bind(java.net.UnixDomainSocketAddress.of(config.resolve(SingleInstance.SOCKET_NAME)));
        } // closed without deleting the file: like a crash
        assertThat(config.resolve(SingleInstance.SOCKET_NAME)).exists();
        assertThat(SingleInstance.forward(config, List.of("x"))).isFalse();
        LinkedBlockingQueue<List<String>> received = new LinkedBlockingQueue<>();
        SingleInstance next = SingleInstance.listen(config, received::add);
        try {
            assertThat(SingleInstance.forward(config, List.of("y"))).isTrue();
            assertThat(received.poll(10, TimeUnit.SECONDS)).containsExactly("y");
        } finally {
            next.close();
        }
    }
}
