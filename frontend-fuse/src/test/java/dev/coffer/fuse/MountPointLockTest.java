package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock that keeps a second mount off a folder while a first is being mounted there. */
class MountPointLockTest {
    @TempDir
    Path tmp;

    /** This process's user: the owner of the folder it just made. */
    private long uid() throws Exception {
        return ((Number) Files.getAttribute(tmp, "unix:uid")).longValue();
    }

    @Test
    void aSecondLockOfTheSameFolderInThisProcessIsRefusedUntilTheFirstIsReleased() throws Exception {
        Path parent = Files.createDirectory(tmp.resolve("parent"));
        Path mnt = Files.createDirectory(parent.resolve("mnt"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), parent).resolve("mnt");
        Path locks = tmp.resolve("locks");
        MountPointLock first = MountPointLock.acquire(mnt, locks, uid());
        assertThatThrownBy(() -> MountPointLock.acquire(link, locks, uid()))
                .as("the same folder through a linked parent").isInstanceOf(MountPointException.class)
                .hasMessageContaining(mnt.toRealPath().toString()).hasMessageContaining("another mount is being started");
        MountPointLock other = MountPointLock.acquire(tmp.resolve("other"), locks, uid());
        other.close();
        first.close();
        first.close(); // twice is harmless
        MountPointLock.acquire(link, locks, uid()).close();
    }

    @Test
    void aLockHeldByAnotherProcessRefusesUntilThatProcessEnds() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        Path locks = tmp.resolve("locks");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", // it only locks: it starts sooner without C2's compiles
                "-cp", System.getProperty("java.class.path"), MountPointLockProcess.class.getName(), mnt.toString(),
                locks.toString(), Long.toString(uid())));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            assertThatThrownBy(() -> MountPointLock.acquire(mnt, locks, uid())).isInstanceOf(MountPointException.class)
                    .hasMessageContaining(mnt.toRealPath().toString());
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        MountPointLock.acquire(mnt, locks, uid()).close();
    }

    @Test
    void theLockFolderIsTheUsersOwnAndAnotherUsersOrALinkIsRefused() throws Exception {
        Path locks = tmp.resolve("locks");
        MountPointLock.acquire(tmp.resolve("mnt"), locks, uid()).close();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(locks))).isEqualTo("rwx------");
        Files.setPosixFilePermissions(locks, PosixFilePermissions.fromString("rwxrwxrwx"));
        MountPointLock.acquire(tmp.resolve("mnt"), locks, uid()).close();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(locks))).as("tightened").isEqualTo("rwx------");
        assertThatThrownBy(() -> MountPointLock.acquire(tmp.resolve("mnt"), locks, uid() + 1))
                .as("a folder of another user").hasMessageContaining("not a folder of this user");
        Path linked = Files.createSymbolicLink(tmp.resolve("linked"), locks);
        assertThatThrownBy(() -> MountPointLock.acquire(tmp.resolve("mnt"), linked, uid()))
                .as("a link, which another user could point anywhere").hasMessageContaining("not a folder of this user");
    }

    /**
     * A link another user made at {@code coffer-UID} in the shared temp folder (or a folder of theirs):
     * the locks go to the user's home instead, rather than every mount of this user being refused.
     */
    @Test
    void aLockFolderNameTakenInTheSharedTempFolderFallsBackToTheHome() throws Exception {
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(shared.resolve("coffer-" + uid()), elsewhere);
        Path home = Files.createDirectory(tmp.resolve("home"));

        String out = lockInChild(Files.createDirectory(tmp.resolve("mnt")), uid(), null, shared, home);

        assertThat(out).isEqualTo("locked");
        Path locks = home.resolve(".cache/coffer-mount-locks");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(locks))).isEqualTo("rwx------");
        try (var files = Files.list(locks)) {
            assertThat(files).as("its lock file removed once released").containsExactly(locks.resolve(MountPointLock.FOLDER_LOCK));
        }
        try (var files = Files.list(elsewhere)) {
            assertThat(files.count()).as("nothing where the link points").isZero();
        }
    }

    /**
     * A runtime folder of another user (root run with a user's environment: sudo -E) is not written
     * to: a folder of root's there would refuse every later mount of that user.
     */
    @Test
    void theRuntimeFolderOfAnotherUserIsLeftAlone() throws Exception {
        Path runtime = Files.createDirectory(tmp.resolve("run"));
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Path home = Files.createDirectory(tmp.resolve("home"));

        lockInChild(Files.createDirectory(tmp.resolve("mnt")), uid() + 1, runtime, shared, home);

        assertThat(runtime.resolve("coffer")).doesNotExist();
    }

    /**
     * A process with a runtime folder of the user's (a desktop session) and one without (ssh, cron)
     * lock in one place: before, the first locked in {@code $XDG_RUNTIME_DIR/coffer}, the second in
     * {@code coffer-UID} in the temp folder, and both mounted on one folder at once.
     */
    @Test
    void processesWithAndWithoutARuntimeFolderExcludeEachOther() throws Exception {
        Path runtime = Files.createDirectory(tmp.resolve("run"));
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Path home = Files.createDirectory(tmp.resolve("home"));
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));

        Process desktop = startChild(mnt, uid(), runtime, shared, home, "hold");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(desktop.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            assertThat(lockInChild(mnt, uid(), null, shared, home)).as("a process without XDG_RUNTIME_DIR")
                    .startsWith("refused").contains("another mount is being started");
        } finally {
            desktop.destroyForcibly();
            assertThat(desktop.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }

        Process ssh = startChild(mnt, uid(), null, shared, home, "hold");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(ssh.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            assertThat(lockInChild(mnt, uid(), runtime, shared, home)).as("a process with XDG_RUNTIME_DIR")
                    .startsWith("refused").contains("another mount is being started");
        } finally {
            ssh.destroyForcibly();
            assertThat(ssh.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(lockInChild(mnt, uid(), runtime, shared, home)).isEqualTo("locked");
    }

    /** Runs {@link DefaultLockFolderProcess} with this runtime folder (none if null), temp folder and home; its output. */
    private String lockInChild(Path mnt, long uid, Path runtime, Path tempFolder, Path home) throws Exception {
        Process child = startChild(mnt, uid, runtime, tempFolder, home);
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private Process startChild(Path mnt, long uid, Path runtime, Path tempFolder, Path home, String... more)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", // it only locks: it starts sooner without C2's compiles
                "-Djava.io.tmpdir=" + tempFolder, "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"),
                DefaultLockFolderProcess.class.getName(), mnt.toString(), Long.toString(uid)));
        command.addAll(List.of(more));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (runtime == null) {
            pb.environment().remove("XDG_RUNTIME_DIR");
        } else {
            pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        }
        return pb.start();
    }

    /**
     * A released lock removes its file (before session 36 every mount point left one behind, hundreds
     * after a test run); the folder's own lock file stays.
     */
    @Test
    void aReleasedLockLeavesNoFile() throws Exception {
        Path locks = tmp.resolve("locks");
        MountPointLock lock = MountPointLock.acquire(tmp.resolve("mnt"), locks, uid());
        Path file = MountPointLock.fileFor(tmp.resolve("mnt"), locks);
        assertThat(file).exists();
        lock.close();
        try (var files = Files.list(locks)) {
            assertThat(files).containsExactly(locks.resolve(MountPointLock.FOLDER_LOCK));
        }
    }

    /** A real mount: its lock file in the user's lock folder is gone once mounted (the lock is released then) and after. */
    @Test
    void aMountLeavesNoLockFile() throws Exception {
        Path file = MountPointLock.fileFor(MountPaths.withRealParent(tmp.resolve("mnt")), MountPointLock.folderFor(uid()));
        VaultMount vault = new VaultMount(tmp);
        try {
            assertThat(file).as("mounted").doesNotExist();
        } finally {
            vault.close();
        }
        assertThat(file).as("unmounted").doesNotExist();
        assertThat(MountPointLock.folderFor(uid()).resolve(MountPointLock.FOLDER_LOCK)).exists();
    }

    /**
     * Two processes taking and releasing one lock as fast as they can, each release removing the
     * file: never both hold it. Removing the file while the other had opened but not yet locked it
     * let that one lock a file no longer at the name while the first made and locked a new one.
     */
    @Test
    void twoProcessesRacingWithTheRemovalNeverBothHoldTheLock() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        Path locks = tmp.resolve("locks");
        Path holder = tmp.resolve("holder");
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            children.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), MountPointLockLoopProcess.class.getName(),
                    mnt.toString(), locks.toString(), Long.toString(uid()), "4000", holder.toString())
                    .redirectErrorStream(true).start());
        }
        for (Process child : children) {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(out).as("exit %d", child.exitValue()).matches("held [1-9][0-9]* times");
        }
        try (var files = Files.list(locks)) {
            assertThat(files).containsExactly(locks.resolve(MountPointLock.FOLDER_LOCK));
        }
    }

    @Test
    void theLockFilesGoInTheUsersFolderInTheTempFolderWhateverTheEnvironment() throws Exception {
        assertThat(MountPointLock.folderFor(uid())).isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "coffer-" + uid()));
    }
}
