package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many processes and threads reading and writing the same and different files of a real vault
 * through its FUSE mount, with {@code fio} checking every block it wrote (crc32c, verified while
 * writing and fatal on the first mismatch): three forked writers share one file in regions whose
 * borders fall inside the vault's 4096-byte units (so two writers change the same unit at once),
 * two reader processes read that file meanwhile, and two threads mix reads and writes of odd
 * sizes in their own files. Afterwards the vault is unmounted, locked, opened again, and every
 * file has the content it had through the mount. A deadlock fails on the timeout.
 */
class ConcurrentFioTest {
    private static final int SECONDS = Integer.getInteger("coffer.fio.seconds", 4);

    @TempDir
    Path tmp;

    @Test
    @Timeout(180)
    void fioWithManyJobsFindsNoCorruptionAndTheVaultReopensIdentical() throws Exception {
        VaultMount vault = new VaultMount(tmp);
        Map<String, String> throughMount;
        try {
            Path job = tmp.resolve("concurrency.fio");
            Files.writeString(job, jobFile(vault.mnt));
            Shell.Result r = Shell.run(tmp, "fio", "--output-format=json", job.toString());
            assertThat(r.exit()).as("fio failed: %s", r.output()).isZero();
            Matcher errors = Pattern.compile("\"error\"\\s*:\\s*([0-9]+)").matcher(r.output());
            int jobs = 0;
            while (errors.find()) {
                assertThat(errors.group(1)).as("a job's error in %s", r.output()).isEqualTo("0");
                jobs++;
            }
            assertThat(jobs).as("fio reported every job").isEqualTo(7);
            assertThat(r.output()).contains("\"jobname\" : \"shared\"", "\"jobname\" : \"own\"", "\"jobname\" : \"readers\"");
            throughMount = digests(vault.mnt);
            assertThat(throughMount).containsKey("shared.bin").hasSize(3);
        } finally {
            vault.close();
        }
        try (CofferFileSystem fs = CofferFileSystems.open(vault.vault, "test passphrase".toCharArray(), true)) {
            assertThat(digests(fs.getPath("/"))).isEqualTo(throughMount);
        }
    }

    private static String jobFile(Path dir) {
        return String.join("\n",
                "[global]",
                "directory=" + dir,
                "ioengine=psync",
                "time_based=1",
                "runtime=" + SECONDS,
                "verify=crc32c",
                "verify_backlog=32",
                "verify_fatal=1",
                "",
                "# three processes write one file; the 2,000,000-byte borders fall inside 4096-byte units",
                "[shared]",
                "filename=shared.bin",
                "rw=randwrite",
                "bs=2000",
                "size=2000000",
                "offset_increment=2000000",
                "numjobs=3",
                "",
                "# two threads, each its own file, reads and writes of 512 bytes to 64 KiB",
                "[own]",
                "rw=randrw",
                "bsrange=512-65536",
                "size=3m",
                "numjobs=2",
                "thread=1",
                "",
                "# two processes read the shared file while it is written",
                "[readers]",
                "filename=shared.bin",
                "rw=randread",
                "bs=4096",
                "size=6000000",
                "numjobs=2",
                "verify=0",
                "");
    }

    /** SHA-256 of every regular file under {@code root}, by relative path. */
    static Map<String, String> digests(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(p).toString(), sha256(p));
            }
        }
        return out;
    }

    private static String sha256(Path p) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            try (var in = Files.newInputStream(p)) {
                byte[] buf = new byte[1 << 16];
                int n;
                while ((n = in.read(buf)) > 0) {
                    md.update(buf, 0, n);
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
