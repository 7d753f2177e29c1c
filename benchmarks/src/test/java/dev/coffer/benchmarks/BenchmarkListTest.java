package dev.coffer.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Not a benchmark run: checks that the JMH annotation processor ran, so that the jar is not built
 * with zero benchmarks (what JDK 25 does when the processor is not declared).
 */
class BenchmarkListTest {
    private static final List<String> EXPECTED = List.of(
            "XtsBenchmark.encrypt", "XtsBenchmark.decrypt",
            "UnitCryptorBenchmark.encrypt", "UnitCryptorBenchmark.decrypt",
            "FileChannelBenchmark.seqWrite", "FileChannelBenchmark.seqRead",
            "FileChannelBenchmark.randomRead4k", "FileChannelBenchmark.randomWrite4k",
            "ListingBenchmark.listVault", "ListingBenchmark.listPlain",
            "NameBenchmark.encryptName", "NameBenchmark.encryptNameRemembered", "NameBenchmark.decryptName",
            "NameBenchmark.storageFolderUncached", "NameBenchmark.storageFolderCached",
            "UnlockBenchmark.unlock", "UnlockBenchmark.unlockAndOpen",
            "SmallFilesBenchmark.openReadClose", "SmallFilesBenchmark.createWriteClose",
            "SmallFilesBenchmark.createWriteOnceClose");

    @Test
    void everyBenchmarkIsListed() throws IOException {
        Path list = Path.of("target", "classes", "META-INF", "BenchmarkList");
        assertTrue(Files.isRegularFile(list), "no " + list + ": the JMH annotation processor did not run");
        // One line per benchmark method, naming its generated class "<Class>_<method>_jmhTest".
        List<String> lines = Files.readAllLines(list, StandardCharsets.UTF_8);
        for (String b : EXPECTED) {
            String generated = ".jmh_generated." + b.replace('.', '_') + "_jmhTest ";
            assertTrue(lines.stream().anyMatch(l -> l.contains(generated)), b + " missing from " + list);
        }
    }
}
