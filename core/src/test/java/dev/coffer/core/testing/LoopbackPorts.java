package dev.coffer.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;

/** Whether a local server still listens: for tests that check a server was stopped. */
public final class LoopbackPorts {
    private LoopbackPorts() {}

    /** True if a connection to {@code port} on the loopback address is accepted, false if refused. */
    public static boolean accepts(int port) {
        try {
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
