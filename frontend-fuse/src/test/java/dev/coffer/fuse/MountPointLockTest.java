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

    @Test
    void theLockFilesGoInTheRuntimeFolderElseInTheUsersFolderInTheTempFolder() {
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path folder = MountPointLock.folderFor(1000);
        if (runtime != null && !runtime.isEmpty() && Files.isDirectory(Path.of(runtime))) {
            assertThat(folder).isEqualTo(Path.of(runtime, "coffer"));
        } else {
            assertThat(folder).isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "coffer-1000"));
        }
    }
}
