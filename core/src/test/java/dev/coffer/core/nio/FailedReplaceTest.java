package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.testing.TmpfsMount;
import dev.coffer.core.util.AtomicFiles;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A move that replaces its target and fails leaves the target as it was (rename(2)): where the move
 * is more than one rename (a link or folder on either side), the target is set aside first and put
 * back, not deleted first. Here the new entry of a long name cannot be written on a full disk (when
 * the target was deleted first, that move got the space the deleted target freed and succeeded), or
 * the payload cannot be renamed (immutable: that lost the target when it was deleted first).
 */
class FailedReplaceTest {
    private static final String LONG = "a long name ".repeat(20);

    @TempDir
    Path tmp;

    @Test
    void aLinkMovedOverAFileOnAFullDiskLeavesTheFile() throws Exception {
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                CofferFileSystem fs = vaultIn(small)) {
            Path file = fs.getPath("/" + LONG + ".txt");
            Path link = fs.getPath("/link");
            Files.writeString(file, "the file's content");
            Files.createSymbolicLink(link, fs.getPath("elsewhere"));
            Path ballast = small.fill("ballast.bin");

            assertThatThrownBy(() -> Files.move(link, file, StandardCopyOption.REPLACE_EXISTING))
                    .hasMessageContaining("No space left on device");

            assertFileAndLinkAsBefore(fs, small, file, link);

            Files.delete(ballast);
            Files.move(link, file, StandardCopyOption.REPLACE_EXISTING);
            assertThat(Files.isSymbolicLink(file)).isTrue();
            assertThat(names(fs)).containsExactly(LONG + ".txt");
            assertThat(setAside(small)).isEmpty();
        }
    }

    @Test
    void aFolderMovedOverAnEmptyFolderOnAFullDiskLeavesIt() throws Exception {
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                CofferFileSystem fs = vaultIn(small)) {
            Path target = fs.getPath("/" + LONG + "folder");
            Path moved = fs.getPath("/moved");
            Files.createDirectory(target);
            Files.createDirectory(moved);
            Files.writeString(moved.resolve("inside.txt"), "inside");
            Path ballast = small.fill("ballast.bin");

            assertThatThrownBy(() -> Files.move(moved, target, StandardCopyOption.REPLACE_EXISTING))
                    .hasMessageContaining("No space left on device");

            assertThat(Files.isDirectory(target)).isTrue();
            Files.delete(ballast);
            Files.writeString(target.resolve("still usable.txt"), "yes"); // its storage is still its own
            assertThat(Files.readString(target.resolve("still usable.txt"))).isEqualTo("yes");
            assertThat(Files.readString(moved.resolve("inside.txt"))).isEqualTo("inside");
            assertThat(setAside(small)).isEmpty();

            assertThatThrownBy(() -> Files.move(moved, target, StandardCopyOption.REPLACE_EXISTING))
                    .isInstanceOf(DirectoryNotEmptyException.class);
            Files.delete(target.resolve("still usable.txt"));
            Files.move(moved, target, StandardCopyOption.REPLACE_EXISTING);
            assertThat(Files.readString(target.resolve("inside.txt"))).isEqualTo("inside");
            assertThat(names(fs)).containsExactly(LONG + "folder");
            assertThat(setAside(small)).isEmpty();
        }
    }

    @Test
    void aLinkWhosePayloadCannotMoveLeavesTheFileItWouldReplace() throws Exception {
        try (TmpfsMount store = TmpfsMount.mount(tmp.resolve("store"), 8);
                CofferFileSystem fs = vaultIn(store)) {
            Path file = fs.getPath("/file.txt");
            Path link = fs.getPath("/link");
            Files.writeString(file, "the file's content");
            Files.createSymbolicLink(link, fs.getPath("elsewhere"));
            Path linkPayload;
            try (Stream<Path> s = Files.walk(store.dir().resolve("v").resolve("d"))) {
                linkPayload = s.filter(p -> p.getFileName().toString().equals("symlink.c9r")).findFirst().orElseThrow();
            }
            chattr("+i", linkPayload); // the payload's rename fails (EPERM), after the target was dealt with
            try {
                assertThatThrownBy(() -> Files.move(link, file, StandardCopyOption.REPLACE_EXISTING))
                        .hasMessageContaining("Operation not permitted");
            } finally {
                chattr("-i", linkPayload);
            }

            assertFileAndLinkAsBefore(fs, store, file, link);
        }
    }

    /** The failed move changed nothing: the file and the link as they were, nothing left set aside. */
    private static void assertFileAndLinkAsBefore(CofferFileSystem fs, TmpfsMount store, Path file, Path link)
            throws IOException {
        assertThat(Files.readString(file)).isEqualTo("the file's content");
        assertThat(Files.readSymbolicLink(link).toString()).isEqualTo("elsewhere");
        assertThat(names(fs)).containsExactlyInAnyOrder(file.getFileName().toString(), "link");
        assertThat(setAside(store)).isEmpty();
    }

    /** chattr(1): the immutable flag makes even root's rename of the file fail (tmpfs supports it). */
    private static void chattr(String flag, Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("chattr " + flag + ": " + out).isZero();
    }

    private static List<String> names(CofferFileSystem fs) throws IOException {
        try (Stream<Path> s = Files.list(fs.getPath("/"))) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }

    private static CofferFileSystem vaultIn(TmpfsMount store) throws IOException {
        return CofferFileSystems.create(store.dir().resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST);
    }

    /** Every {@code .coffer-tmp-} item in the vault's storage (a set-aside entry left behind). */
    private static List<Path> setAside(TmpfsMount store) throws IOException {
        try (Stream<Path> s = Files.walk(store.dir().resolve("v").resolve("d"))) {
            return s.filter(p -> p.getFileName().toString().startsWith(AtomicFiles.TEMP_PREFIX)
                    && Files.exists(p, LinkOption.NOFOLLOW_LINKS)).collect(Collectors.toList());
        }
    }
}
