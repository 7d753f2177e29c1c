package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.health.Finding;
import dev.coffer.core.health.FindingKind;
import dev.coffer.core.health.HealthReport;
import dev.coffer.core.health.Severity;
import dev.coffer.core.health.VaultHealth;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.fuse.MountTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coffer mount} (the real launcher, its own process) killed with SIGKILL during a write
 * storm ({@link WriteStorm}). A writer in the test JVM creates files, writes them, fsyncs them
 * ({@code FileChannel.force(true)}), renames files and folders, makes folders and deletes, and
 * records every file whose fsync returned; a file leaves that record before it is renamed,
 * deleted or written again. At a random moment the mounting process is killed; {@code coffer
 * mount} on the same mount point must then clear the stale mount and mount again, and every recorded
 * file of every round must read back intact. A file that then cannot be read must be a write the kill
 * cut short: unmounted, the check reports it as an interrupted write (and nothing worse than
 * repairable leftovers), {@code coffer check --repair --yes} repairs it and {@code coffer check}
 * says healthy; mounted again, every entry of the vault must be readable. Three
 * rounds here ({@code -Dcoffer.kill.rounds} changes that; the 20-round version is issue 8's); the
 * seed is fixed ({@code -Dcoffer.kill.seed}) and named in every failure, the moment of the kill
 * is not.
 */
class MountKillIT {
    private static final String PASSPHRASE = "correct horse battery";
    private static final int ROUNDS = Integer.getInteger("coffer.kill.rounds", 3);
    private static final long SEED = Long.getLong("coffer.kill.seed", 8L);

    @TempDir
    Path tmp;

    private Path launcher;
    private Path vault;
    private Path mnt;
    private final List<Process> started = new ArrayList<>();

    private record Mounted(Process process, BufferedReader err) {}

    @BeforeEach
    void vault() throws Exception {
        launcher = Path.of(System.getProperty("coffer.launcher", "target/coffer")).toAbsolutePath();
        vault = tmp.resolve("vault");
        mnt = tmp.resolve("mnt");
        TestVaults.create(vault, PASSPHRASE);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        if (MountTable.isMounted(mnt)) {
            new ProcessBuilder("fusermount", "-u", "-z", mnt.toString()).start().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(mnt + " was still mounted after the test");
        }
    }

    private Process process(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("COFFER_PASSPHRASE", PASSPHRASE);
        QuickLauncherJvm.use(pb.environment());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private Mounted mount() throws IOException {
        Process p = process("mount", vault.toString(), mnt.toString());
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null) {
            // The mount did not come up: say why (its stderr) instead of only "null".
            StringBuilder why = new StringBuilder();
            for (String l = err.readLine(); l != null; l = err.readLine()) {
                why.append(l).append('\n');
            }
            throw new AssertionError("coffer mount printed no mount point; stderr:\n" + why);
        }
        assertThat(line).as("the mount point on stdout").isEqualTo(mnt.toString());
        assertThat(MountTable.isMounted(mnt)).isTrue();
        return new Mounted(p, err);
    }

    @Test
    void everyFileWhoseFsyncReturnedSurvivesAKilledMount() throws Exception {
        Map<String, WriteStorm.Content> durable = new ConcurrentHashMap<>();
        int tornRounds = 0;
        int tornFiles = 0;
        Random timing = new Random();
        Mounted m = mount();
        assertThat(m.err().readLine()).startsWith("coffer: mounted");
        for (int round = 0; round < ROUNDS; round++) {
            String context = "seed " + SEED + ", round " + round;
            WriteStorm writer = new WriteStorm(mnt, "round " + round, new Random(SEED * 1000 + round), durable);
            Thread t = new Thread(writer, "writer");
            t.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (writer.fsyncs < 10 && System.nanoTime() < deadline && t.isAlive()) {
                Thread.sleep(10);
            }
            Thread.sleep(timing.nextInt(1000));
            writer.killed = true;
            m.process().destroyForcibly(); // SIGKILL
            assertThat(m.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
            t.join(30_000);
            assertThat(t.isAlive()).as("%s: the writer ended after the kill", context).isFalse();
            assertThat(writer.failures).as("%s: errors before the kill", context).isEmpty();
            assertThat(writer.fsyncs).as("%s: fsyncs before the kill", context).isGreaterThanOrEqualTo(10);
            assertThat(MountTable.isMounted(mnt)).as("%s: a stale mount is left", context).isTrue();
            System.out.printf("%s: %d operations, %d fsyncs, killed after %d ms%n", context, writer.operations, writer.fsyncs,
                    writer.millis());

            m = mount();
            assertThat(m.err().readLine()).as("%s: the stale mount is cleared", context).contains("stale");
            for (Map.Entry<String, WriteStorm.Content> e : durable.entrySet()) {
                assertThat(Files.readAllBytes(mnt.resolve(e.getKey()))).as("%s: %s, whose fsync returned", context, e.getKey())
                        .isEqualTo(e.getValue().bytes());
            }
            Set<String> unlistable = new TreeSet<>();
            Set<String> unreadable = unreadableFiles(unlistable);
            if (!unreadable.isEmpty() || !unlistable.isEmpty()) {
                // Only a write the kill cut short may be unreadable, and only a folder whose delete the kill
                // cut between its storage and its pointer (spec 4's order) unlistable: the check must say
                // so, and repair them.
                tornRounds += unreadable.isEmpty() ? 0 : 1;
                tornFiles += unreadable.size();
                System.out.printf("%s: unreadable after the kill: %s, unlistable: %s%n", context, unreadable, unlistable);
                unmount(m);
                checkAndRepairInterruptedWrites(context, unreadable, unlistable, durable);
                m = mount();
                assertThat(m.err().readLine()).as("%s: mounted again after the repair", context).startsWith("coffer: mounted");
            }
            readEverything(context);
        }
        System.out.printf("mount kill: %d rounds, interrupted writes: %d file(s) in %d round(s)%n", ROUNDS, tornFiles, tornRounds);
        unmount(m);
        assertThat(durable).as("files that were fsynced and then left alone").hasSizeGreaterThan(ROUNDS * 3);
        // and the vault opens without a mount
        Process ls = process("ls", vault.toString(), "/");
        String listing = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ls.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(ls.exitValue()).isZero();
        assertThat(listing).contains("round 0");
    }

    private void unmount(Mounted m) throws IOException, InterruptedException {
        m.process().destroy(); // SIGTERM
        assertThat(m.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(m.process().exitValue()).isEqualTo(143);
        assertThat(MountTable.isMounted(mnt)).isFalse();
    }

    /**
     * The mount-relative paths of the files that cannot be read to their end; those of the folders
     * that cannot be listed go into {@code unlistable} (their subtrees are not visited).
     */
    private Set<String> unreadableFiles(Set<String> unlistable) {
        TreeReadCheck read = TreeReadCheck.of(mnt, p -> mnt.relativize(p).toString());
        unlistable.addAll(read.unlistable);
        return read.unreadable;
    }

    /**
     * With the vault unmounted: the check reports exactly the {@code unreadable} files as interrupted
     * writes, none of them fsynced and left alone, exactly the {@code unlistable} folders as dangling
     * pointers, and nothing worse than repairable leftovers;
     * {@code coffer check --repair --yes} exits 0, and then {@code coffer check} says healthy.
     */
    private void checkAndRepairInterruptedWrites(String context, Set<String> unreadable, Set<String> unlistable,
            Map<String, WriteStorm.Content> durable) throws Exception {
        HealthReport report;
        try (UnlockedVault u = VaultAccess.unlock(vault, PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u)) {
            report = health.check();
        }
        Set<String> interrupted = new TreeSet<>();
        Set<String> dangling = new TreeSet<>();
        for (Finding f : report.findings()) {
            if (f.kind() == FindingKind.DANGLING_POINTER) {
                dangling.add(f.cleartextPath().substring(1));
            }
            assertThat(f.severity() == Severity.INFO || f.repairable() && WriteStorm.REPAIRABLE_LEFTOVERS.contains(f.kind()))
                    .as("%s: %s", context, f).isTrue();
            if (f.kind() == FindingKind.INTERRUPTED_WRITE) {
                interrupted.add(f.cleartextPath().substring(1));
                System.out.printf("%s: interrupted write %s: %s%n", context, f.cleartextPath(), f.detail());
            }
        }
        assertThat(interrupted).as("%s: the interrupted writes the check reports", context).isEqualTo(unreadable);
        assertThat(dangling).as("%s: the dangling pointers the check reports", context).isEqualTo(unlistable);
        assertThat(durable.keySet()).as("%s: fsynced and left alone, yet unreadable", context).doesNotContainAnyElementsOf(unreadable);
        assertThat(run("check", vault.toString(), "--repair", "--yes")).as("%s: coffer check --repair --yes", context).contains("Healthy:");
        assertThat(run("check", vault.toString())).as("%s: coffer check after the repair", context).contains("Healthy:");
    }

    /** Runs the launcher to its end; asserts exit 0 and returns its standard output. */
    private String run(String... args) throws Exception {
        Process p = process(args);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("coffer %s: %s%s", String.join(" ", args), out, err).isZero();
        return out;
    }

    /** Walks the whole mount, reading every file to its end: nothing the kill left may be unreadable. */
    private void readEverything(String context) throws IOException {
        List<Path> entries;
        try (Stream<Path> s = Files.walk(mnt)) {
            entries = s.toList();
        }
        for (Path p : entries) {
            if (Files.isRegularFile(p)) {
                try {
                    Files.readAllBytes(p);
                } catch (IOException e) {
                    throw new AssertionError(context + ": " + mnt.relativize(p) + " cannot be read: " + e, e);
                }
            }
        }
    }
}
