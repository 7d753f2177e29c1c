package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.fuse.MountTable;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FuseMounter} with real FUSE mounts (of a plain folder: the mounter knows nothing of vaults):
 * a busy mount point and a busy drive become the problems the UI explains.
 */
class FuseMounterIT {
    @TempDir
    Path tmp;

    private Drive drive;

    @AfterEach
    void unmount() throws Exception {
        if (drive != null && drive.isMounted()) {
            drive.unmount(true);
        }
    }

    @Test
    void aMountPointThatIsNotEmptyIsMountPointBusy() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path busy = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(busy.resolve("something.txt"), "x");
        assertThatThrownBy(() -> new FuseMounter().mount(root, new MountRequest("Taxes", busy, false, 0)))
                .isInstanceOfSatisfying(VaultException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.MOUNT_POINT_BUSY);
                    assertThat(e.detail()).contains(busy.toString());
                });
    }

    @Test
    void anOpenFileMakesTheDriveBusyUntilForced() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(root.resolve("open.txt"), "hello");
        Path mnt = tmp.resolve("mnt");
        drive = new FuseMounter().mount(root, new MountRequest("Taxes", mnt, true, 0));
        assertThat(drive.location()).isEqualTo(mnt.toString());
        assertThat(drive.revealTarget()).isEqualTo(mnt.toUri());
        assertThat(MountTable.isMounted(mnt)).isTrue();
        assertThat(Files.readString(mnt.resolve("open.txt"))).isEqualTo("hello");
        assertThatThrownBy(() -> Files.writeString(mnt.resolve("new.txt"), "x")).as("read-only").isInstanceOf(java.io.IOException.class);
        try (FileChannel ch = FileChannel.open(mnt.resolve("open.txt"), StandardOpenOption.READ)) {
            assertThatThrownBy(() -> drive.unmount(false))
                    .isInstanceOfSatisfying(VaultException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DRIVE_BUSY));
            assertThat(drive.isMounted()).isTrue();
            assertThat(ch.size()).isEqualTo(5);
        }
        drive.unmount(false);
        assertThat(drive.isMounted()).isFalse();
        assertThat(MountTable.isMounted(mnt)).isFalse();
    }
}
