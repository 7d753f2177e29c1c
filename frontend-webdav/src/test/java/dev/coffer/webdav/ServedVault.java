package dev.coffer.webdav;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Test fixture: a new vault in a temp folder, unlocked and served over WebDAV on a free loopback
 * port (optionally with a credential). {@link #close} stops the server and locks the vault.
 */
final class ServedVault implements AutoCloseable {
    /** Cheap key derivation: the tests are about WebDAV, not scrypt. */
    static final VaultCreationOptions FAST = new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220);

    final CofferFileSystem fs;
    final Path root;
    final WebDavServer server;

    ServedVault(Path tmp) throws IOException {
        this(tmp, false);
    }

    /** With {@code credential}: a server that also requires its HTTP Basic credential. */
    ServedVault(Path tmp, boolean credential) throws IOException {
        fs = CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(), FAST);
        root = fs.getPath("/");
        server = credential ? WebDavServer.startWithCredential(root, 0) : WebDavServer.start(root, 0);
    }

    /** The password of the server's credential (tests only: production code never makes it a String). */
    String password() {
        return password(server);
    }

    static String password(WebDavServer server) {
        String lines = new String(server.credential().clientInput(), java.nio.charset.StandardCharsets.US_ASCII);
        return lines.split("\n")[1];
    }

    String url() {
        return server.url();
    }

    /**
     * For a class that shares one server among its tests (a server's stop waits a second for its
     * client's idle keep-alive connection): deletes over WebDAV whatever is in the root, so the
     * server forgets those names and their locks too, and checks that at most its staging folder is
     * left. A test that leaves a lock behind fails here, as it would leave the next test a 423.
     */
    void emptyRoot() throws IOException, InterruptedException {
        DavClient dav = new DavClient(url());
        for (String name : namesInRoot()) {
            int status = dav.send("DELETE", "/" + DavUrls.encodeSegment(name), (String) null).statusCode();
            org.assertj.core.api.Assertions.assertThat(status).as("DELETE of %s after the test", name).isEqualTo(204);
        }
        try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(root)) {
            org.assertj.core.api.Assertions.assertThat(left.map(p -> p.getFileName().toString())).isSubsetOf(Staging.FOLDER);
        }
    }

    private java.util.List<String> namesInRoot() throws IOException {
        try (java.util.stream.Stream<Path> names = java.nio.file.Files.list(root)) {
            return names.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(DeadProperties.RESERVED_PREFIX)).toList();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
        } finally {
            fs.close();
        }
    }
}
