package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** basic:isDirectory, answered from the lookup, says what a full read says (a damaged pointer, a missing root storage folder). */
class TypeAttributeShortcutTest {
    private static final String PASS = "pass phrase";

    @TempDir
    Path tmp;

    private static Path only(Path vault, String name) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            return s.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElseThrow();
        }
    }

    private interface Read {
        Object run() throws IOException;
    }

    /** The value read, or the simple name of the exception thrown. */
    private static Object outcome(Read r) {
        try {
            return r.run();
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    /** A damaged dir.c9r: the full read throws, the shortcut answers true. */
    @Test
    void damagedPointer() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path folder = Files.createDirectory(fs.getPath("/folder"));
            Files.writeString(only(vault, "dir.c9r"), "not an id at all, far too long for a dir id" .repeat(10));
            Object shortcut = outcome(() -> Files.getAttribute(folder, "basic:isDirectory", LinkOption.NOFOLLOW_LINKS));
            Object full = outcome(() -> Files.readAttributes(folder, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isDirectory());
            assertThat(shortcut).as("shortcut vs full read").isEqualTo(full);
            assertThat(full).isEqualTo("DamagedEntryException");
        }
    }

    /** The root's storage folder gone (a sync client): the full read throws NoSuchFileException, the shortcut says true. */
    @Test
    void rootStorageMissing() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path rootStorage = only(vault, "dirid.c9r").getParent();
            Files.delete(rootStorage.resolve("dirid.c9r"));
            Files.delete(rootStorage);
            Object full = outcome(() -> Files.readAttributes(fs.getPath("/"), BasicFileAttributes.class).isDirectory());
            assertThat(outcome(() -> Files.getAttribute(fs.getPath("/"), "basic:isDirectory"))).as("shortcut vs full read").isEqualTo(full);
            assertThat(full).isEqualTo("NoSuchFileException");
        }
    }
}
