package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.VaultCreationOptions;
import dev.coffer.fuse.MountTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tampering seen through a real FUSE mount ({@code coffer mount}, the launcher): a flipped byte in
 * one unit of a SIV_XTSHMAC file makes reads of that unit fail with EIO ("Input/output error"),
 * never return wrong bytes, while the file's other units and other files read back exactly; a
 * flipped header byte fails every read of that file only.
 */
class TamperedMountIT {
    private static final String PASSPHRASE = "tampered mount";
    private static final int SIZE = 3 * 4096 + 100;
    private static final int STORED_UNIT = 4096 + 32;

    @TempDir
    Path tmp;

    private Process mount;

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            mount.destroy();
            mount.waitFor(30, TimeUnit.SECONDS);
        }
        Path mnt = tmp.resolve("mnt");
        if (MountTable.isMounted(mnt)) {
            new ProcessBuilder("fusermount", "-u", "-z", mnt.toString()).start().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(mnt + " was still mounted after the test");
        }
    }

    @Test
    void aTamperedUnitReadsAsEioAndNothingElseIsAffected() throws Exception {
        Path vault = tmp.resolve("vault");
        byte[] target = bytes(1, SIZE);
        byte[] other = bytes(2, 20_000);
        byte[] headerVictim = bytes(3, 5_000);
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASSPHRASE.toCharArray(),
                new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220))) {
            Files.write(fs.getPath("/target.bin"), target);
            Files.write(fs.getPath("/other.bin"), other);
            Files.write(fs.getPath("/header.bin"), headerVictim);
        }
        flip(ciphertextOfLength(vault, 48 + SIZE + 4 * 32), 48 + STORED_UNIT + 500); // unit 1
        flip(ciphertextOfLength(vault, 48 + 5_000 + 2 * 32), 20); // the header

        Path mnt = tmp.resolve("mnt");
        mount = mount(vault, mnt);
        assertThatThrownBy(() -> Files.readAllBytes(mnt.resolve("target.bin"))).isInstanceOf(IOException.class)
                .hasMessageContaining("Input/output error");
        assertThatThrownBy(() -> read(mnt.resolve("target.bin"), 4096, 4096)).isInstanceOf(IOException.class)
                .hasMessageContaining("Input/output error");
        assertThat(read(mnt.resolve("target.bin"), 0, 4096)).isEqualTo(Arrays.copyOfRange(target, 0, 4096));
        assertThat(read(mnt.resolve("target.bin"), 8192, SIZE - 8192)).isEqualTo(Arrays.copyOfRange(target, 8192, SIZE));
        assertThat(Files.size(mnt.resolve("target.bin"))).isEqualTo(SIZE);
        assertThatThrownBy(() -> read(mnt.resolve("header.bin"), 0, 10)).isInstanceOf(IOException.class)
                .hasMessageContaining("Input/output error");
        assertThat(Files.readAllBytes(mnt.resolve("other.bin"))).isEqualTo(other);
        try (Stream<Path> s = Files.list(mnt)) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList()).isEqualTo(List.of("header.bin", "other.bin", "target.bin"));
        }
    }

    private Process mount(Path vault, Path mnt) throws IOException {
        Path launcher = Path.of(System.getProperty("coffer.launcher", "target/coffer")).toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "mount", vault.toString(), mnt.toString()).directory(tmp.toFile());
        pb.environment().put("COFFER_PASSPHRASE", PASSPHRASE);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("the mount point on stdout").isEqualTo(mnt.toString());
        assertThat(MountTable.isMounted(mnt)).isTrue();
        return p;
    }

    /** The one ciphertext file under d/ of this length (the test's files all have different sizes). */
    private static Path ciphertextOfLength(Path vault, long length) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            List<Path> found = s.filter(Files::isRegularFile).filter(p -> p.toFile().length() == length).toList();
            assertThat(found).hasSize(1);
            return found.get(0);
        }
    }

    private static byte[] bytes(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] read(Path file, long position, int length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate(length);
            while (buf.hasRemaining() && ch.read(buf, position + buf.position()) >= 0) {
                continue;
            }
            return Arrays.copyOf(buf.array(), buf.position());
        }
    }

    private static void flip(Path file, long position) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, position);
            b.put(0, (byte) (b.get(0) ^ 0x40));
            ch.write(b.flip(), position);
        }
    }
}
