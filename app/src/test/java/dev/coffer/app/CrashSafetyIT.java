package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.cli.CliContext;
import dev.coffer.app.cli.Terminal;
import dev.coffer.core.health.Finding;
import dev.coffer.core.health.FindingKind;
import dev.coffer.core.health.HealthReport;
import dev.coffer.core.health.Severity;
import dev.coffer.core.health.VaultHealth;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.fuse.MountTable;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety (issue 8): {@code coffer mount} (the real launcher, its own process) is killed with
 * SIGKILL at a random moment of a {@link WriteStorm}, {@value #DEFAULT_ROUNDS} rounds on one vault.
 * After each kill the stale mount is cleared ({@code fusermount -u -z}) and, without a mount: the
 * vault opens; every file whose fsync returned (and that was not renamed, deleted or written since)
 * reads back exactly, in this round and every earlier one; the health check finds nothing but
 * repairable problems and notes ({@link WriteStorm#REPAIRABLE_LEFTOVERS}: orphans of an interrupted
 * mkdir, pointers of an interrupted rmdir, fresh temporary files, interrupted writes); a file that
 * cannot be read is allowed only if the check reports it as an interrupted write (a write the kill
 * cut short) and its fsync had not returned; {@code coffer check --repair --yes} repairs and exits 0,
 * after which the check is clean and every file reads. The kill moments come from a fixed seed ({@code -Dcoffer.crash.seed})
 * named in every failure; {@code -Dcoffer.crash.rounds} changes the number of rounds.
 */
class CrashSafetyIT {
    private static final String PASSPHRASE = "crash safety";
    static final int DEFAULT_ROUNDS = 20;
    private static final int ROUNDS = Integer.getInteger("coffer.crash.rounds", DEFAULT_ROUNDS);
    private static final long SEED = Long.getLong("coffer.crash.seed", 20L);
    @TempDir
    Path tmp;

    private Path launcher;
    private Path vault;
    private Path mnt;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void vault() throws Exception {
        launcher = Path.of(System.getProperty("coffer.launcher", "target/coffer")).toAbsolutePath();
        vault = tmp.resolve("vault");
        mnt = tmp.resolve("mnt");
        assertThat(cli("create", vault.toString(), "--scrypt-n", "16384")).isZero();
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        if (MountTable.isMounted(mnt)) {
            unmountLazily();
            throw new AssertionError(mnt + " was still mounted after the test");
        }
    }

    @Test
    void everyFsyncedFileSurvivesSigkillAndTheCheckFindsOnlyRepairableLeftovers() throws Exception {
        Map<String, WriteStorm.Content> durable = new ConcurrentHashMap<>();
        Random timing = new Random(SEED);
        Map<FindingKind, Integer> seen = new EnumMap<>(FindingKind.class);
        int tornRounds = 0;
        int tornFiles = 0;
        long startedAt = System.nanoTime();
        for (int round = 0; round < ROUNDS; round++) {
            String context = "seed " + SEED + ", round " + round;
            Process mount = mount(context);
            WriteStorm storm = new WriteStorm(mnt, "round " + round, new Random(SEED * 1000 + round), durable);
            Thread t = new Thread(storm, "storm");
            t.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (storm.fsyncs < 2 && System.nanoTime() < deadline && t.isAlive()) {
                Thread.sleep(5);
            }
            Thread.sleep(timing.nextInt(600));
            storm.killed = true;
            mount.destroyForcibly(); // SIGKILL
            assertThat(mount.waitFor(20, TimeUnit.SECONDS)).as("%s: coffer died", context).isTrue();
            t.join(30_000);
            assertThat(t.isAlive()).as("%s: the storm ended after the kill", context).isFalse();
            assertThat(storm.failures).as("%s: errors before the kill", context).isEmpty();
            assertThat(storm.fsyncs).as("%s: fsyncs before the kill", context).isGreaterThanOrEqualTo(2);
            unmountLazily();
            assertThat(MountTable.isMounted(mnt)).as("%s: the stale mount is cleared", context).isFalse();
            String inFlight = storm.inFlight == null ? null : "/" + storm.inFlight;

            HealthReport report;
            Set<String> unlistable = new TreeSet<>();
            Set<String> unreadable;
            // One unlock (a scrypt run) for the file system and the check, which only read.
            try (UnlockedVault u = VaultAccess.unlock(vault, PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u);
                    CofferFileSystem fs = CofferFileSystems.open(u.copy(), true)) {
                // The vault opens, and every file whose fsync returned is intact.
                for (Map.Entry<String, WriteStorm.Content> e : durable.entrySet()) {
                    assertThat(Files.readAllBytes(fs.getPath("/" + e.getKey()))).as("%s: %s, whose fsync returned", context, e.getKey())
                            .isEqualTo(e.getValue().bytes());
                }
                report = health.check();
                unreadable = unreadableFiles(fs, unlistable);
            }
            // The check finds nothing worse than repairable leftovers: a file the kill cut short is an interrupted write.
            Set<String> interrupted = new TreeSet<>();
            Set<String> dangling = new TreeSet<>();
            for (Finding f : report.findings()) {
                if (f.kind() == FindingKind.DANGLING_POINTER) {
                    dangling.add(f.cleartextPath()); // a folder delete killed between its storage and its pointer (spec 4's order)
                }
                seen.merge(f.kind(), 1, Integer::sum);
                assertThat(f.severity() == Severity.INFO || f.repairable() && WriteStorm.REPAIRABLE_LEFTOVERS.contains(f.kind()))
                        .as("%s: %s (in flight: %s)", context, f, inFlight).isTrue();
                if (f.kind() == FindingKind.INTERRUPTED_WRITE) {
                    assertThat(f.cleartextPath()).as("%s: %s", context, f).isNotNull();
                    assertThat(durable).as("%s: %s was fsynced and left alone", context, f).doesNotContainKey(f.cleartextPath().substring(1));
                    interrupted.add(f.cleartextPath());
                    System.out.printf("%s: interrupted write %s: %s%n", context, f.cleartextPath(), f.detail());
                }
            }
            // Only an interrupted write may be unreadable, and only a dangling pointer's folder unlistable.
            assertThat(unreadable).as("%s: unreadable files", context).isEqualTo(interrupted);
            assertThat(unlistable).as("%s: folders that cannot be listed", context).isEqualTo(dangling);
            tornRounds += interrupted.isEmpty() ? 0 : 1;
            tornFiles += interrupted.size();
            System.out.printf("%s: %d operations, %d fsyncs, killed after %d ms; %s%n", context, storm.operations, storm.fsyncs,
                    storm.millis(), report.findings().stream().map(f -> f.kind() + (f.repairable() ? "" : "(kept)")).toList());
            // coffer check --repair --yes repairs them; a second check is clean, and every file reads.
            int repaired = cli("check", vault.toString(), "--repair", "--yes");
            assertThat(repaired).as("%s: check --repair exit code", context).isZero();
            try (UnlockedVault u = VaultAccess.unlock(vault, PASSPHRASE.toCharArray()); VaultHealth health = VaultHealth.of(u);
                    CofferFileSystem fs = CofferFileSystems.open(u.copy(), true)) {
                HealthReport after = health.check();
                assertThat(after.findings()).as("%s: after repair", context).allMatch(f -> f.severity() == Severity.INFO && !f.repairable());
                Set<String> unlistableAfter = new TreeSet<>();
                assertThat(unreadableFiles(fs, unlistableAfter)).as("%s: unreadable files after the repair", context).isEmpty();
                assertThat(unlistableAfter).as("%s: folders that cannot be listed after the repair", context).isEmpty();
            }
        }
        System.out.printf("crash safety: %d rounds in %d s, findings over all rounds: %s, interrupted writes: %d file(s) in %d"
                + " round(s)%n", ROUNDS, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedAt), seen, tornFiles, tornRounds);
        assertThat(durable).as("files that were fsynced and then left alone").hasSizeGreaterThan(ROUNDS);
        // Finally through the real launcher: the repaired vault is healthy.
        Process check = process("check", vault.toString());
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as(out).isZero();
        assertThat(out).contains("Healthy:");
    }

    /**
     * The cleartext paths of the files in the vault that cannot be read to their end; the folders that
     * cannot be listed go into {@code unlistable} (their subtrees are not visited).
     */
    private static Set<String> unreadableFiles(CofferFileSystem fs, Set<String> unlistable) {
        TreeReadCheck read = TreeReadCheck.of(fs.getPath("/"), Path::toString);
        unlistable.addAll(read.unlistable);
        return read.unreadable;
    }

    /** Runs the coffer command line in this JVM (fast); its output is discarded unless it fails. */
    private static int cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Terminal none = new Terminal() {
            @Override
            public boolean isAvailable() {
                return false;
            }

            @Override
            public char[] readSecret(String prompt) {
                return null;
            }
        };
        PrintStream stream = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(new CliContext(name -> name.equals("COFFER_PASSPHRASE") ? PASSPHRASE : null, none, stream, stream), args);
        if (code != 0) {
            System.out.println(out.toString(StandardCharsets.UTF_8));
        }
        return code;
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

    private Process mount(String context) throws IOException {
        Process p = process("mount", vault.toString(), mnt.toString());
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null) {
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            throw new AssertionError(context + ": coffer mount printed no mount point; stderr:\n" + err);
        }
        assertThat(line).as("%s: the mount point on stdout", context).isEqualTo(mnt.toString());
        assertThat(MountTable.isMounted(mnt)).isTrue();
        return p;
    }

    private void unmountLazily() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("fusermount", "-u", "-z", mnt.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("fusermount ended").isTrue();
        assertThat(p.exitValue()).as("fusermount -u -z: %s", out).isZero();
    }
}
