package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.content.DamagedFileException;
import dev.coffer.core.crypto.AesSiv;
import dev.coffer.core.crypto.AuthenticationFailedException;
import dev.coffer.core.names.DirIdFiles;
import dev.coffer.core.names.NameCipher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Garbage where the vault expects names, pointers, headers and units: clean errors, other files unaffected. */
class HostileInputTest {
    @TempDir
    Path tmp;

    @Test
    void garbageNamesNeverDecrypt() {
        NameCipher names = new NameCipher(new AesSiv(new byte[64]));
        Random rnd = new Random(5);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .\0é";
        for (int i = 0; i < 5000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = rnd.nextInt(300);
            for (int j = 0; j < len; j++) {
                sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            assertThatThrownBy(() -> names.decrypt(sb.toString(), "")).isInstanceOf(AuthenticationFailedException.class);
        }
        String good = names.encrypt("name", "");
        assertThatThrownBy(() -> names.decrypt(good, "other-parent")).isInstanceOf(AuthenticationFailedException.class);
    }

    /**
     * Regression (found by NamesFuzzTest): a name with an unpaired surrogate has no UTF-8 form and
     * was stored as '?', so "\ud800", "\udc00" and "?" were all the same file.
     */
    @Test
    void namesWithoutAUtf8FormAreRefusedAndNeverCollide() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "p".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            for (String bad : new String[] {"\ud800", "a\udc00b", "x\ud83d", "\ude00\ud83d"}) {
                assertThatThrownBy(() -> fs.getPath("/" + bad)).isInstanceOf(java.nio.file.InvalidPathException.class);
                assertThatThrownBy(() -> fs.getPath("/").resolve(bad)).isInstanceOf(java.nio.file.InvalidPathException.class);
            }
            Files.writeString(fs.getPath("/?"), "question mark");
            Files.writeString(fs.getPath("/\ud83d\ude00"), "emoji");
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("?", "\ud83d\ude00");
            }
            assertThat(Files.readString(fs.getPath("/?"))).isEqualTo("question mark");
        }
    }

    @Test
    void onlyExactLowerCaseUuidPointersAreValid() throws IOException {
        String[] bad = {"", "00000000-0000-0000-0000-00000000000", "00000000-0000-0000-0000-0000000000000",
                "00000000-0000-0000-0000-00000000000A", "00000000-0000-0000-0000-000000000000\n", "../../../../etc/passwd......."};
        for (String b : bad) {
            Path f = Files.writeString(tmp.resolve("dir.c9r"), b);
            assertThat(DirIdFiles.read(f)).as("'%s'", b).isNull();
        }
        assertThat(DirIdFiles.read(Files.writeString(tmp.resolve("dir.c9r"), "0f8fad5b-d9cb-469f-a165-70867728950e")))
                .isEqualTo("0f8fad5b-d9cb-469f-a165-70867728950e");
    }

    @Test
    void aDamagedFileFailsWithItsCleartextPathAndOthersStayReadable() throws IOException {
        Path vaultDir = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.write(fs.getPath("/victim.bin"), new byte[10_000]);
            Files.writeString(fs.getPath("/bystander.txt"), "still here");
        }
        Path victim = largestCiphertextFile(vaultDir);
        byte[] ct = Files.readAllBytes(victim);
        ct[ct.length / 2] ^= 1; // inside a unit
        Files.write(victim, ct);
        try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, "pass phrase".toCharArray(), false)) {
            assertThat(Files.size(fs.getPath("/victim.bin"))).isEqualTo(10_000);
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/victim.bin")))
                    .isInstanceOf(DamagedFileException.class).hasMessageContaining("/victim.bin")
                    .hasMessageNotContaining(victim.getFileName().toString());
            assertThat(Files.readString(fs.getPath("/bystander.txt"))).isEqualTo("still here");
        }
        ct[0] ^= 1; // now the header too
        Files.write(victim, ct);
        try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, "pass phrase".toCharArray(), false)) {
            assertThatThrownBy(() -> Files.newByteChannel(fs.getPath("/victim.bin")))
                    .isInstanceOf(DamagedFileException.class).hasMessageContaining("header");
            Files.write(fs.getPath("/victim.bin"), "rewritten".getBytes(StandardCharsets.UTF_8)); // truncating rewrite works
            assertThat(Files.readString(fs.getPath("/victim.bin"))).isEqualTo("rewritten");
        }
    }

    @Test
    void aDamagedUnitInTheSecondHalfOfALargeReadFailsTheRead() throws IOException {
        Path vaultDir = tmp.resolve("v2");
        byte[] content = new byte[200 * 4096];
        new Random(1).nextBytes(content);
        try (CofferFileSystem fs = CofferFileSystems.create(vaultDir, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Files.write(fs.getPath("/big.bin"), content);
        }
        Path big = largestCiphertextFile(vaultDir);
        byte[] ct = Files.readAllBytes(big);
        ct[48 + 30 * (4096 + 32) + 100] ^= 1; // unit 30, inside the first 128 KiB batch
        Files.write(big, ct);
        try (CofferFileSystem fs = CofferFileSystems.open(vaultDir, "pass phrase".toCharArray(), false);
             java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(fs.getPath("/big.bin"))) {
            java.nio.ByteBuffer first = java.nio.ByteBuffer.allocate(128 * 1024);
            assertThatThrownBy(() -> ch.read(first, 0)).isInstanceOf(DamagedFileException.class).hasMessageContaining("unit 30");
            java.nio.ByteBuffer later = java.nio.ByteBuffer.allocate(128 * 1024);
            assertThat(ch.read(later, 32L * 4096)).isEqualTo(128 * 1024); // other batches are fine
            assertThat(java.util.Arrays.equals(later.array(), java.util.Arrays.copyOfRange(content, 32 * 4096, 64 * 4096))).isTrue();
        }
    }

    private static Path largestCiphertextFile(Path vaultDir) throws IOException {
        try (Stream<Path> s = Files.walk(vaultDir.resolve("d"))) {
            return s.filter(Files::isRegularFile).max((a, b) -> Long.compare(a.toFile().length(), b.toFile().length())).orElseThrow();
        }
    }
}
