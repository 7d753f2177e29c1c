package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A drive letter as the mount point: passed on to WinFsp on Windows, refused clearly elsewhere. */
class DriveLetterMountPointTest {
    @TempDir
    Path tmp;

    @Test
    void recognisesDriveLetters() {
        assertThat(MountPoint.isDriveLetter("Z:")).isTrue();
        assertThat(MountPoint.isDriveLetter("k:")).isTrue();
        assertThat(MountPoint.isDriveLetter("Z:\\")).isTrue();
        assertThat(MountPoint.isDriveLetter("Z")).isFalse();
        assertThat(MountPoint.isDriveLetter("ZZ:")).isFalse();
        assertThat(MountPoint.isDriveLetter("Z:/x")).isFalse();
        assertThat(MountPoint.isDriveLetter("/mnt/Z:")).isFalse();
    }

    @Test
    void onWindowsADriveLetterIsPassedOnAsIs() throws IOException {
        // No fusermount on Windows: the drive letter path never touches it.
        MountPoint mp = MountPoint.prepare(Path.of("Z:"), null, "Windows 11");
        assertThat(mp.folder()).isEqualTo(Path.of("Z:"));
        assertThat(mp.created()).isFalse();
    }

    @Test
    void elsewhereADriveLetterIsRefusedWithoutCreatingAFolder() {
        Path relative = Path.of("Q:");
        assertThatThrownBy(() -> FuseMount.mount(tmp, relative, MountOptions.defaults(false)))
                .isInstanceOf(MountPointException.class)
                .hasMessage("a drive letter such as Q: is a mount point on Windows only; give a folder to mount on");
        assertThat(Files.exists(relative)).isFalse();
    }
}
