package dev.coffer.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.fuse.MountTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A mount run and used by an ordinary user (root bypasses permission bits, so every other test
 * cannot tell): mounts have no {@code default_permissions}, so the kernel does not check modes, and
 * the vault's store must refuse what a local disk refuses that user - writing a {@code chmod 444}
 * file, reading a {@code chmod 000} one, creating in a {@code chmod 555} folder - while what the
 * modes allow still works. The real launcher runs as {@code nobody} (setpriv), mounting through the
 * setuid fusermount as any user does.
 */
class PermissionsAsUserIT {
    private static final String UID = "65534"; // nobody
    private static final String PASSPHRASE = "correct horse battery";

    private Path dir;
    private Path launcher;
    private Path mnt;
    private final List<Process> started = new ArrayList<>();

    /** Exit code and output (stdout and stderr together) of a command run as the user. */
    private record Result(int exit, String output) {}

    @BeforeEach
    void setUp() throws Exception {
        assertThat(System.getProperty("user.name")).as("running the mount as another user needs root").isEqualTo("root");
        // Everything the user needs in a folder it may read: the build's own folder may be under /root.
        dir = Files.createTempDirectory(Path.of("/tmp"), "coffer-perm-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path built = Path.of(System.getProperty("coffer.launcher", "target/coffer")).toAbsolutePath();
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Files.copy(built, bin.resolve("coffer"), StandardCopyOption.COPY_ATTRIBUTES);
        try (Stream<Path> s = Files.list(built.getParent())) {
            for (Path p : s.filter(p -> p.getFileName().toString().matches("coffer-app-.*\\.jar")).toList()) {
                Files.copy(p, bin.resolve(p.getFileName()));
            }
        }
        Path lib = Files.createDirectory(bin.resolve("lib"));
        try (Stream<Path> s = Files.list(built.resolveSibling("lib"))) {
            for (Path p : s.toList()) {
                Files.copy(p, lib.resolve(p.getFileName()));
            }
        }
        launcher = bin.resolve("coffer");
        Files.createDirectory(dir.resolve("home"));
        mnt = Files.createDirectory(dir.resolve("mnt"));
        assertThat(run(List.of("chown", "-R", UID + ":" + UID, dir.toString()), false).exit()).isZero();
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        boolean stillMounted = MountTable.isMounted(mnt);
        if (stillMounted) {
            new ProcessBuilder("fusermount", "-u", "-z", mnt.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
        new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor(60, TimeUnit.SECONDS);
        assertThat(stillMounted).as("still mounted after the test").isFalse();
    }

    private ProcessBuilder asUser(List<String> command) {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=" + UID, "--regid=" + UID, "--clear-groups",
                "env", "HOME=" + dir.resolve("home")));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("COFFER_PASSPHRASE", PASSPHRASE);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return pb;
    }

    private Result run(List<String> command, boolean asUser) throws Exception {
        ProcessBuilder pb = asUser ? asUser(command) : new ProcessBuilder(command).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ended", command).isTrue();
        return new Result(p.exitValue(), out);
    }

    /** A shell command run as the user inside the mount. */
    private Result sh(String command) throws Exception {
        return run(List.of("sh", "-c", "cd '" + mnt + "' && " + command), true);
    }

    @Test
    void theStoreRefusesTheUserWhatItsModesRefuse() throws Exception {
        Path vault = dir.resolve("vault");
        Result created = run(List.of(launcher.toString(), "create", vault.toString(), "--scrypt-n", "16384"), true);
        assertThat(created.exit()).as(created.output()).isZero();
        Process mount = asUser(List.of(launcher.toString(), "mount", vault.toString(), mnt.toString())).start();
        started.add(mount);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!MountTable.isMounted(mnt) && System.nanoTime() < deadline && mount.isAlive()) {
            Thread.sleep(50);
        }
        assertThat(MountTable.isMounted(mnt)).as("mounted by the user").isTrue();
        String entry = Files.readAllLines(Path.of("/proc/mounts")).stream().filter(l -> l.contains(" " + mnt + " ")).findFirst()
                .orElseThrow();
        assertThat(entry).contains("user_id=" + UID).doesNotContain("default_permissions");

        assertThat(sh("echo first > f && cat f").output()).isEqualTo("first\n");
        assertThat(sh("chmod 444 f").exit()).isZero();
        Result write = sh("echo second > f");
        assertThat(write.exit()).isNotZero();
        assertThat(write.output()).contains("Permission denied");
        assertThat(sh("cat f").output()).as("a read-only file still reads").isEqualTo("first\n");
        assertThat(sh("test -w f").exit()).as("access(W_OK) of a read-only file").isNotZero();
        assertThat(sh("chmod 000 f").exit()).isZero();
        Result read = sh("cat f");
        assertThat(read.exit()).isNotZero();
        assertThat(read.output()).contains("Permission denied");
        assertThat(sh("mkdir d && chmod 555 d").exit()).isZero();
        Result create = sh("touch d/x");
        assertThat(create.exit()).isNotZero();
        assertThat(create.output()).contains("Permission denied");
        assertThat(sh("chmod 755 d && touch d/x && ls d").output()).isEqualTo("x\n");
        assertThat(sh("rm f && ls").output()).as("a file goes with its folder's write permission").isEqualTo("d\n");

        mount.destroy(); // SIGTERM: unmounts and locks
        assertThat(mount.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(MountTable.isMounted(mnt)).isFalse();
    }
}
