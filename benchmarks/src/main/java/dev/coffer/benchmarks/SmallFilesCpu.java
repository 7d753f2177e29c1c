package dev.coffer.benchmarks;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.vault.CipherCombo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Not JMH: the CPU time and heap allocation of the calling thread per "open, read 12 KiB, close" of
 * one of 1,000 vault files (what {@link SmallFilesBenchmark} times), which vary far less than wall
 * time on a shared machine. Every open, read and close runs on that one thread (a 12 KiB read never
 * reads ahead), so its CPU time is all the work. 12 rounds of 20,000 files; the first 4 are warm-up.
 *
 * <pre>java -Xms1g -Xmx1g -cp benchmarks/target/benchmarks.jar dev.coffer.benchmarks.SmallFilesCpu SIV_XTS</pre>
 */
public final class SmallFilesCpu {
    private SmallFilesCpu() {}

    public static void main(String[] args) throws IOException {
        CipherCombo combo = CipherCombo.valueOf(args.length > 0 ? args[0] : "SIV_XTSHMAC");
        Path scratch = BenchSupport.scratch("small-cpu");
        try (CofferFileSystem vault = BenchSupport.cheapVault(scratch.resolve("vault"), combo)) {
            byte[] content = BenchSupport.seeded(SmallFilesBenchmark.SIZE, 30);
            Path[] files = new Path[SmallFilesBenchmark.FILES];
            for (int i = 0; i < files.length; i++) {
                files[i] = Files.write(vault.getPath("/file-" + i + ".c"), content);
            }
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            ByteBuffer buffer = ByteBuffer.allocate(content.length + 1);
            List<Double> cpuMicros = new ArrayList<>();
            List<Double> allocated = new ArrayList<>();
            int perRound = 20_000;
            for (int round = 0; round < 12; round++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long bytes0 = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < perRound; i++) {
                    buffer.clear();
                    try (FileChannel ch = FileChannel.open(files[i % files.length], StandardOpenOption.READ)) {
                        if (ch.read(buffer) != content.length) {
                            throw new IllegalStateException("short read");
                        }
                    }
                }
                if (round >= 4) {
                    cpuMicros.add((threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / perRound);
                    allocated.add((threads.getCurrentThreadAllocatedBytes() - bytes0) / (double) perRound);
                }
            }
            Collections.sort(cpuMicros);
            Collections.sort(allocated);
            System.out.printf("%s: CPU per file median %.2f us (%.2f-%.2f over %d rounds), allocated per file median %.0f B%n",
                    combo, cpuMicros.get(cpuMicros.size() / 2), cpuMicros.get(0), cpuMicros.get(cpuMicros.size() - 1),
                    cpuMicros.size(), allocated.get(allocated.size() / 2));
        } finally {
            BenchSupport.deleteTree(scratch);
        }
    }
}
