package dev.coffer.app.os;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Only one Coffer GUI runs per user: the first one listens on a Unix-domain socket
 * ({@code coffer.sock} in the config folder, readable by the user only); a second launch connects,
 * hands over its arguments (e.g. the vault.coffer that was double-clicked) and exits. A socket file
 * left behind by a crashed instance refuses connections, so it is replaced.
 *
 * <p>Protocol: the count of arguments, then each as modified UTF-8 ({@link DataOutputStream}),
 * answered with one byte. Not responsible for what the arguments mean (the GUI opens them).
 */
public final class SingleInstance implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SingleInstance.class);
    public static final String SOCKET_NAME = "coffer.sock";
    private static final int MAX_ARGS = 64;

    private final ServerSocketChannel server;
    private final Path socket;
    private final Thread acceptor;

    private SingleInstance(ServerSocketChannel server, Path socket, Consumer<List<String>> handler) {
        this.server = server;
        this.socket = socket;
        this.acceptor = new Thread(() -> acceptLoop(handler), "coffer-single-instance");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Hands {@code args} to the running instance, if there is one.
     *
     * @return true if a running instance took them (this process should exit), false if none runs
     */
    public static boolean forward(Path configFolder, List<String> args) throws IOException {
        Path socket = configFolder.resolve(SOCKET_NAME);
        if (!Files.exists(socket)) {
            return false;
        }
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
            out.writeInt(args.size());
            for (String a : args) {
                out.writeUTF(a);
            }
            out.flush();
            int answer = Channels.newInputStream(ch).read();
            return answer == 1;
        } catch (ConnectException e) {
            return false; // left behind by an instance that is gone
        } catch (SocketException e) {
            LOG.debug("the running instance did not answer: {}", e.getMessage());
            return false;
        }
    }

    /** Becomes the running instance: each forwarded argument list goes to {@code handler} (on the listener thread). */
    public static SingleInstance listen(Path configFolder, Consumer<List<String>> handler) throws IOException {
        Files.createDirectories(configFolder);
        Path socket = configFolder.resolve(SOCKET_NAME);
        Files.deleteIfExists(socket); // callers tried forward() first: a file here is stale
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the folder's permissions protect it
        }
        return new SingleInstance(server, socket, handler);
    }

    private void acceptLoop(Consumer<List<String>> handler) {
        while (server.isOpen()) {
            try (SocketChannel ch = server.accept()) {
                DataInputStream in = new DataInputStream(Channels.newInputStream(ch));
                int count = in.readInt();
                if (count < 0 || count > MAX_ARGS) {
                    continue;
                }
                List<String> args = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    args.add(in.readUTF());
                }
                Channels.newOutputStream(ch).write(1);
                handler.accept(List.copyOf(args));
            } catch (IOException | RuntimeException e) {
                if (server.isOpen()) {
                    LOG.debug("a forwarded launch failed: {}", e.getClass().getSimpleName());
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(socket);
        try {
            acceptor.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
