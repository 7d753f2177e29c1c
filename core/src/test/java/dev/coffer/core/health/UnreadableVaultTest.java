package dev.coffer.core.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.vault.CipherCombo;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real I/O error in the middle of a folder: the vault lies in a gocryptfs mount whose backing
 * file of one {@code dir.c9r} is damaged, so reading that pointer fails with EIO (as root, a
 * permission error cannot be made). The check must go on with the items after it, and must not
 * adopt or remove any orphan, because the unreadable pointer may be the one that reaches it.
 * Needs gocryptfs and FUSE (scripts/test.sh installs them).
 */
class UnreadableVaultTest {
    @TempDir
    Path tmp;

    @Test
    void anUnreadablePointerHidesNothingAfterItAndStopsEveryOrphanRepair() throws Exception {
        Path cipher = Files.createDirectories(tmp.resolve("cipher"));
        Path plain = Files.createDirectories(tmp.resolve("plain"));
        run("gocryptfs", "-init", "-plaintextnames", "-q", "-extpass", "echo pw", cipher.toString());
        mount(cipher, plain);
        try {
            HealthFixture v = HealthFixture.create(plain, CipherCombo.SIV_XTSHMAC);
            Path docs = v.entry("/docs");
            Path empty = v.entry("/empty");
            // The pointer that sorts first in the root fails; the other folder comes after it.
            boolean docsFirst = docs.getFileName().toString().compareTo(empty.getFileName().toString()) < 0;
            String failing = docsFirst ? "/docs" : "/empty";
            String after = docsFirst ? "/empty" : "/docs";
            Path failingStorage = v.storage(failing);
            Path afterStorage = v.storage(after);
            Path pointer = v.entry(failing).resolve("dir.c9r");
            v.aged();
            unmount(plain);
            damage(cipher.resolve(plain.relativize(pointer).toString()));
            mount(cipher, plain);

            HealthReport report = v.check();
            assertThat(report.ofKind(FindingKind.UNREADABLE)).extracting(Finding::ciphertextPath).containsExactly(v.relative(pointer));
            assertThat(report.findings()).as("the folder after the unreadable pointer is still reached")
                    .noneMatch(f -> f.ciphertextPath().equals(v.relative(afterStorage)));
            assertThat(report.ofKind(FindingKind.ORPHAN_FOLDER)).singleElement().satisfies(f -> {
                assertThat(f.ciphertextPath()).isEqualTo(v.relative(failingStorage));
                assertThat(f.repairable()).isFalse();
                assertThat(f.detail()).contains("could not be read");
            });
            assertThat(report.repairs()).isEmpty();
            assertThat(v.repairAndCheck().findings()).isEqualTo(report.findings());
            assertThat(failingStorage.resolve("dirid.c9r")).exists();
            assertThat(plain.resolve("vault")).isDirectory();
        } finally {
            unmount(plain);
        }
    }

    /** Changes bytes inside gocryptfs's first content block, so that it fails authentication: reads give EIO. */
    private static void damage(Path backing) throws IOException {
        try (FileChannel ch = FileChannel.open(backing, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 20);
        }
    }

    private static void mount(Path cipher, Path plain) throws Exception {
        run("gocryptfs", "-q", "-extpass", "echo pw", cipher.toString(), plain.toString());
    }

    private static void unmount(Path plain) throws Exception {
        if (Files.readString(Path.of("/proc/mounts")).contains(" " + plain + " ")) {
            run("fusermount", "-u", plain.toString());
        }
    }

    private static void run(String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(cmd.get(0) + " is needed for this test (scripts/test.sh installs gocryptfs and fuse3)", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(cmd + " finished").isTrue();
        assertThat(p.exitValue()).as(cmd + ": " + out).isZero();
    }
}
