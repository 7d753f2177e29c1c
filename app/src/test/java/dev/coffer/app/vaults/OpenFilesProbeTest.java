package dev.coffer.app.vaults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The /proc scan that tells auto-lock whether a drive is in use, on a real open file of this process. */
class OpenFilesProbeTest {
    @TempDir
    Path tmp;

    private Drive driveAt(URI target) {
        return new Drive() {
            @Override public String location() { return target.toString(); }
            @Override public URI revealTarget() { return target; }
            @Override public MountMethod method() { return MountMethod.FUSE; }
            @Override public void unmount(boolean force) throws IOException { }
            @Override public boolean isMounted() { return true; }
        };
    }

    @Test
    void anOpenFileInsideMakesTheDriveInUse() throws Exception {
        Path drive = Files.createDirectories(tmp.resolve("drive"));
        Path file = Files.writeString(drive.resolve("open.txt"), "x");
        OpenFilesProbe probe = OpenFilesProbe.system();
        assertThat(probe.inUse(driveAt(drive.toUri()))).isFalse();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(ch.isOpen()).isTrue();
            assertThat(probe.inUse(driveAt(drive.toUri()))).isTrue();
            assertThat(probe.inUse(driveAt(Files.createDirectories(tmp.resolve("other")).toUri()))).isFalse();
        }
        assertThat(probe.inUse(driveAt(drive.toUri()))).isFalse();
    }

    @Test
    void aWebDavUrlCountsAsInUseSoAutoLockNeverLocksItUnderAClient() {
        assertThat(OpenFilesProbe.system().inUse(driveAt(URI.create("http://127.0.0.1:42427/Taxes/")))).isTrue();
    }
}
