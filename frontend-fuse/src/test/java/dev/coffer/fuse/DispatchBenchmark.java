package dev.coffer.fuse;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * Measures the three ways to dispatch FUSE requests (docs/fuse.md has the figures): Coffer's pool
 * of Java threads driving libfuse's session, libfuse's own multithreaded loop (jnr-fuse's {@code
 * mount}), and libfuse's single-threaded loop ({@code -s}); for comparison also the pool with
 * {@code -o sync_read} and a pool of one thread. For each: 1 GiB written and read with {@code dd
 * bs=128K} and the JVM's CPU time for both, 2,000 small files copied in with {@code cp -r}, the
 * latency of listing another folder while a read takes 2 s, and how many distinct threads served
 * the read and write callbacks.
 *
 * <p>Run: {@code java -cp <test classpath> dev.coffer.fuse.DispatchBenchmark [/dev/shm] [rounds]}.
 * Not a test: figures depend on the machine.
 */
public final class DispatchBenchmark {
    private static final long SLOW_MILLIS = 2_000;
    private static final String OPTIONS = String.join(",", MountOptions.BUILT_IN) + ",fsname=bench";

    private enum Mode { POOL, POOL_SYNC_READ, POOL_OF_ONE, LIBFUSE_MT, LIBFUSE_SINGLE }

    /** Counts the distinct threads that run read and write callbacks. */
    static final class CountingAdapter extends SlowAdapter {
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();

        CountingAdapter(Path root, long uid, long gid) {
            super(root, uid, gid, SLOW_MILLIS);
        }

        @Override
        public int read(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
            threads.add(Thread.currentThread());
            return super.read(path, buf, size, offset, fi);
        }

        @Override
        public int write(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
            threads.add(Thread.currentThread());
            return super.write(path, buf, size, offset, fi);
        }
    }

    private DispatchBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path base = Files.createTempDirectory(Path.of(args.length > 0 ? args[0] : "/dev/shm"), "coffer-bench");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path small = Files.createDirectories(base.resolve("small"));
        for (int i = 0; i < 2000; i++) {
            Files.write(small.resolve("f" + i), new byte[4096]);
        }
        System.out.println("mode            backing  write MiB/s  read MiB/s  JVM CPU s/GiB w+r  cp 2000 files s  ls during slow read ms  threads");
        for (String backing : List.of("plain", "vault")) {
            for (Mode mode : Mode.values()) {
                List<double[]> results = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    results.add(round(base.resolve(backing + "-" + mode + "-" + r), backing, mode, small));
                }
                System.out.printf(Locale.ROOT, "%-15s %-8s %11.0f %11.0f %18.2f %16.2f %23.0f %8.0f%n", mode, backing,
                        median(results, 0), median(results, 1), median(results, 5), median(results, 2), median(results, 3),
                        median(results, 4));
            }
        }
        Shell.ok(base.getParent(), "rm", "-rf", base.toString());
    }

    private static double[] round(Path dir, String backingKind, Mode mode, Path small) throws Exception {
        Files.createDirectories(dir);
        CofferFileSystem fs = null;
        Path root;
        if (backingKind.equals("vault")) {
            fs = CofferFileSystems.create(dir.resolve("vault"), "benchmark pass".toCharArray(), VaultMountTest.FAST);
            root = fs.getPath("/");
        } else {
            root = Files.createDirectory(dir.resolve("plain"));
        }
        Files.createDirectories(root.resolve("slow"));
        Files.writeString(root.resolve("slow/file"), "slow");
        Files.createDirectories(root.resolve("other"));
        Files.writeString(root.resolve("other/x"), "x");
        Path mnt = dir.resolve("mnt");
        CountingAdapter[] adapter = new CountingAdapter[1];
        FuseMount pooled = null;
        if (mode == Mode.POOL || mode == Mode.POOL_OF_ONE || mode == Mode.POOL_SYNC_READ) {
            MountOptions options = MountOptions.defaults(false).withMaxWorkers(mode == Mode.POOL_OF_ONE ? 1 : MountOptions.DEFAULT_MAX_WORKERS);
            if (mode == Mode.POOL_SYNC_READ) {
                options = options.withFuseOptions(List.of("sync_read"));
            }
            pooled = FuseMount.mount(root, mnt, options, (r, uid, gid) -> {
                adapter[0] = new CountingAdapter(r, uid, gid);
                return adapter[0];
            });
        } else {
            Files.createDirectories(mnt);
            adapter[0] = new CountingAdapter(root, 0, 0);
            adapter[0].operations();
            String[] opts = mode == Mode.LIBFUSE_SINGLE ? new String[] {"-s", "-o", OPTIONS} : new String[] {"-o", OPTIONS};
            adapter[0].mount(mnt, false, false, opts);
            awaitMounted(mnt, true);
        }
        try {
            long cpu0 = cpuNanos();
            double write = mibPerSecond(mnt, "dd if=/dev/zero of=big bs=128K count=8192 conv=fsync status=none");
            double read = mibPerSecond(mnt, "dd if=big of=/dev/null bs=128K status=none");
            double cpu = (cpuNanos() - cpu0) / 1e9;
            int threads = adapter[0].threads.size();
            long t0 = System.nanoTime();
            Shell.ok(mnt, "cp", "-r", small.toString(), "small");
            double cp = (System.nanoTime() - t0) / 1e9;
            double ls = mode == Mode.POOL_OF_ONE ? Double.NaN : lsDuringSlowRead(mnt, adapter[0]);
            return new double[] {write, read, cp, ls, threads, cpu};
        } finally {
            if (pooled != null) {
                pooled.unmount(false);
            } else {
                adapter[0].umount();
                awaitMounted(mnt, false);
            }
            if (fs != null) {
                fs.close();
            }
            Shell.ok(dir.getParent(), "rm", "-rf", dir.toString());
        }
    }

    /** CPU time of this JVM (the file system side only: dd runs in its own process). */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double mibPerSecond(Path mnt, String dd) throws Exception {
        long t0 = System.nanoTime();
        Shell.sh(mnt, dd);
        return 1024 / ((System.nanoTime() - t0) / 1e9);
    }

    private static double lsDuringSlowRead(Path mnt, SlowAdapter adapter) throws Exception {
        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(mnt.resolve("slow/file"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        adapter.slowReadStarted.await(10, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        try (Stream<Path> s = Files.list(mnt.resolve("other"))) {
            s.count();
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        slow.get(30, TimeUnit.SECONDS);
        return ms;
    }

    private static void awaitMounted(Path mnt, boolean mounted) throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        while (MountTable.isMounted(mnt) != mounted) {
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("mount state of " + mnt + " did not become " + mounted);
            }
            Thread.sleep(20);
        }
        if (mounted) {
            Files.list(mnt).close(); // the kernel's INIT has been answered
        }
    }

    private static double median(List<double[]> results, int column) {
        List<Double> values = new ArrayList<>();
        for (double[] r : results) {
            values.add(r[column]);
        }
        Collections.sort(values);
        return values.get(values.size() / 2);
    }
}
