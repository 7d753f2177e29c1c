package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link MountPoint#removeCreated} removes: only the empty folders Coffer made. After a forced
 * unmount it looks again (a program still writing by path may have made the name again), and what
 * a program put at one of those names since is the user's, never deleted.
 */
class MountPointRemovalTest {
    @TempDir
    Path tmp;

    /** {@code cp report.pdf ~/mnt} once the forced unmount removed the folder: a file named like the mount point. */
    @Test
    void aFileWrittenAtTheMountPointsNameAfterItWentIsKept() throws IOException {
        Path mnt = tmp.resolve("a/mnt");
        MountPoint mp = MountPoint.prepare(mnt, null);
        mp.removeCreated();
        Files.createDirectories(tmp.resolve("a"));
        Files.writeString(mnt, "the user's file");
        mp.removeCreated();
        assertThat(Files.readString(mnt)).isEqualTo("the user's file");
    }

    @Test
    void aFileWrittenAtACreatedParentsNameIsKept() throws IOException {
        Path mnt = tmp.resolve("a/mnt");
        MountPoint mp = MountPoint.prepare(mnt, null);
        mp.removeCreated();
        Files.writeString(tmp.resolve("a"), "the user's file");
        mp.removeCreated();
        assertThat(Files.readString(tmp.resolve("a"))).isEqualTo("the user's file");
    }

    @Test
    void aLinkMadeAtTheMountPointsNameIsKept() throws IOException {
        Path mnt = tmp.resolve("mnt");
        MountPoint mp = MountPoint.prepare(mnt, null);
        mp.removeCreated();
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(mnt, elsewhere);
        mp.removeCreated();
        assertThat(Files.isSymbolicLink(mnt)).isTrue();
        assertThat(Files.isDirectory(elsewhere)).isTrue();
    }

    @Test
    void theEmptyFoldersItMadeGoAndAFolderWithFilesStays() throws IOException {
        Path mnt = tmp.resolve("a/b/mnt");
        MountPoint mp = MountPoint.prepare(mnt, null);
        mp.removeCreated();
        assertThat(Files.exists(tmp.resolve("a"))).isFalse();
        Files.createDirectories(mnt);
        Files.writeString(mnt.resolve("late.txt"), "cleartext");
        mp.removeCreated();
        assertThat(Files.readString(mnt.resolve("late.txt"))).isEqualTo("cleartext");
        Files.delete(mnt.resolve("late.txt"));
        mp.removeCreated();
        assertThat(Files.exists(tmp.resolve("a"))).isFalse();
    }
}
