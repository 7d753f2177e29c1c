package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A Destination on this server under another loopback name is this server (not 502); another port or host is not. */
class SameServerTest {
    @Test
    void loopbackNamesWithTheSamePortAreThisServer() {
        assertThat(WriteMethods.sameServer("127.0.0.1:8080", "127.0.0.1:8080")).isTrue();
        assertThat(WriteMethods.sameServer("localhost:8080", "127.0.0.1:8080")).isTrue();
        assertThat(WriteMethods.sameServer("[::1]:8080", "localhost:8080")).isTrue();
        assertThat(WriteMethods.sameServer("LOCALHOST:8080", "127.0.0.1:8080")).isTrue();
        assertThat(WriteMethods.sameServer("localhost:8081", "127.0.0.1:8080")).isFalse();
        assertThat(WriteMethods.sameServer("example.org:8080", "127.0.0.1:8080")).isFalse();
        assertThat(WriteMethods.sameServer("127.0.0.2:8080", "127.0.0.1:8080")).isFalse();
        assertThat(WriteMethods.sameServer("localhost", "127.0.0.1:8080")).isFalse();
        assertThat(WriteMethods.sameServer("localhost:8080", null)).isFalse();
    }
}
