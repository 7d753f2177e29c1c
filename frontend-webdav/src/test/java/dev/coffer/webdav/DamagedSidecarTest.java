package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged dead-property sidecar (text that is no {@link java.util.Properties} text, or a
 * ciphertext failing authentication) never blocks a MOVE or COPY of its resource: a MOVE to a free
 * name copies the sidecar's bytes without parsing them, or renames it after the resource when it
 * cannot be read at all; a COPY copies its bytes, or makes the copy without one when it cannot be
 * read (the source keeps it). Before, both parsed it first and answered 500.
 */
class DamagedSidecarTest {
    @TempDir
    Path tmp;

    private ServedVault served;
    private DavClient dav;

    @BeforeEach
    void serve() throws IOException {
        served = new ServedVault(tmp);
        dav = new DavClient(served.url());
    }

    @AfterEach
    void stop() throws IOException {
        served.close();
    }

    @Test
    void aFileWithAnUnparsableSidecarMovesToAFreeNameWithItsSidecarAsItWas() throws Exception {
        assertThat(dav.send("PUT", "/f.txt", "content").statusCode()).isEqualTo(201);
        String damaged = "{urn:z}colour=\\uZZ\n";
        Files.writeString(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".f.txt"), damaged);

        assertThat(dav.send("MOVE", "/f.txt", (String) null, "Destination", dav.url("/g.txt")).statusCode()).isEqualTo(201);

        assertThat(DavClient.text(dav.send("GET", "/g.txt", (String) null))).isEqualTo("content");
        assertThat(served.root.resolve("f.txt")).doesNotExist();
        assertThat(Files.readString(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".g.txt"))).isEqualTo(damaged);
        assertThat(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".f.txt")).doesNotExist();
    }

    @Test
    void aFolderWithAnUnparsableSidecarMovesOverAnotherFolder() throws Exception {
        assertThat(dav.send("MKCOL", "/d", (String) null).statusCode()).isEqualTo(201);
        assertThat(dav.send("MKCOL", "/e", (String) null).statusCode()).isEqualTo(201);
        Files.writeString(served.root.resolve("d/member.txt"), "member");
        Files.writeString(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".d"), "{urn:z}colour=\\uZZ\n");

        assertThat(dav.send("MOVE", "/d", (String) null, "Destination", dav.url("/e")).statusCode()).isEqualTo(204);

        assertThat(served.root.resolve("d")).doesNotExist();
        assertThat(Files.readString(served.root.resolve("e/member.txt"))).isEqualTo("member");
    }

    @Test
    void aFileWhoseSidecarFailsAuthenticationMovesToAFreeName() throws Exception {
        assertThat(dav.send("PUT", "/f.txt", "content").statusCode()).isEqualTo(201);
        Set<Path> before = ciphertextFiles();
        assertThat(dav.send("PROPPATCH", "/f.txt", body("v"), "Content-Type", "application/xml").statusCode()).isEqualTo(207);
        Set<Path> sidecar = ciphertextFiles();
        sidecar.removeAll(before);
        assertThat(sidecar).hasSize(1);
        Path ciphertext = sidecar.iterator().next();
        byte[] b = Files.readAllBytes(ciphertext);
        b[b.length - 20] ^= 1;
        Files.write(ciphertext, b);
        Path sidecarPath = served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".f.txt");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Files.readAllBytes(sidecarPath))).isInstanceOf(IOException.class);

        assertThat(dav.send("MOVE", "/f.txt", (String) null, "Destination", dav.url("/g.txt")).statusCode()).isEqualTo(201);

        assertThat(DavClient.text(dav.send("GET", "/g.txt", (String) null))).isEqualTo("content");
        assertThat(served.root.resolve("f.txt")).doesNotExist();
        assertThat(sidecarPath).doesNotExist();
        assertThat(served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".g.txt")).exists();
    }

    @Test
    void aFileWithAnUnparsableSidecarIsCopiedToAFreeNameAndOverAFileWithItsSidecarAsItWas() throws Exception {
        assertThat(dav.send("PUT", "/f.txt", "content").statusCode()).isEqualTo(201);
        assertThat(dav.send("PUT", "/old.txt", "old").statusCode()).isEqualTo(201);
        assertThat(dav.send("PROPPATCH", "/old.txt", body("old"), "Content-Type", "application/xml").statusCode()).isEqualTo(207);
        String damaged = "{urn:z}colour=\\uZZ\n";
        Path sidecar = served.root.resolve(DeadProperties.SIDECAR_PREFIX + ".f.txt");
        Files.writeString(sidecar, damaged);

        assertThat(dav.send("COPY", "/f.txt", (String) null, "Destination", dav.url("/g.txt")).statusCode()).isEqualTo(201);
        assertThat(dav.send("COPY", "/f.txt", (String) null, "Destination", dav.url("/old.txt")).statusCode()).isEqualTo(204);

        for (String copy : new String[] {"g.txt", "old.txt"}) {
            assertThat(DavClient.text(dav.send("GET", "/" + copy, (String) null))).isEqualTo("content");
            assertThat(Files.readString(served.root.resolve(DeadProperties.SIDECAR_PREFIX + "." + copy))).as(copy).isEqualTo(damaged);
        }
        assertThat(Files.readString(sidecar)).isEqualTo(damaged);
        assertThat(DavClient.text(dav.send("GET", "/f.txt", (String) null))).isEqualTo("content");
    }

    @Test
    void aFileWhoseSidecarFailsAuthenticationIsCopiedWithoutItAndTheSourceKeepsIt() throws Exception {
        assertThat(dav.send("PUT", "/f.txt", "content").statusCode()).isEqualTo(201);
        assertThat(dav.send("PUT", "/old.txt", "old").statusCode()).isEqualTo(201);
        assertThat(dav.send("PROPPATCH", "/old.txt", body("old"), "Content-Type", "application/xml").statusCode()).isEqualTo(207);
        Set<Path> before = ciphertextFiles();
        assertThat(dav.send("PROPPATCH", "/f.txt", body("v"), "Content-Type", "application/xml").statusCode()).isEqualTo(207);
        Set<Path> sidecar = ciphertextFiles();
        sidecar.removeAll(before);
        assertThat(sidecar).hasSize(1);
        Path ciphertext = sidecar.iterator().next();
        byte[] b = Files.readAllBytes(ciphertext);
        b[b.length - 20] ^= 1;
        Files.write(ciphertext, b);

        assertThat(dav.send("COPY", "/f.txt", (String) null, "Destination", dav.url("/g.txt")).statusCode()).isEqualTo(201);
        assertThat(dav.send("COPY", "/f.txt", (String) null, "Destination", dav.url("/old.txt")).statusCode()).isEqualTo(204);

        for (String copy : new String[] {"g.txt", "old.txt"}) {
            assertThat(DavClient.text(dav.send("GET", "/" + copy, (String) null))).isEqualTo("content");
            assertThat(served.root.resolve(DeadProperties.SIDECAR_PREFIX + "." + copy)).as("no properties, not the old file's").doesNotExist();
        }
        assertThat(Files.readAllBytes(ciphertext)).as("the source keeps its sidecar as it was").isEqualTo(b);
    }

    private Set<Path> ciphertextFiles() throws IOException {
        try (Stream<Path> s = Files.walk(tmp.resolve("vault"))) {
            return new HashSet<>(s.filter(Files::isRegularFile).toList());
        }
    }

    private static String body(String value) {
        return "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:set><D:prop>"
                + "<Z:colour>" + value + "</Z:colour></D:prop></D:set></D:propertyupdate>";
    }
}
