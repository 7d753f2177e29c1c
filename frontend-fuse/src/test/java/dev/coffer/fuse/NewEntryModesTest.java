package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new file or folder ends with exactly the mode asked for, with the chmod made only where the umask may have cut it. */
class NewEntryModesTest {
    @TempDir
    Path tmp;

    @Test
    void aNewFileHasExactlyTheModeAskedForWhateverThisProcesssUmask() throws IOException {
        NewEntryModes modes = new NewEntryModes(new Backing(tmp, 0, 0));
        int[] asked = {0600, 0640, 0644, 0664, 0666, 0700, 0755, 0777, 0444, 0000, 0020, 0002};
        for (int mode : asked) {
            Path p = tmp.resolve("f" + Integer.toOctalString(mode));
            FileChannel.open(p, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), modes.atCreation(mode)).close();
            modes.afterCreation(p, mode);
            assertThat(StatFiller.mode(Files.getPosixFilePermissions(p))).as("mode %o", mode).isEqualTo(mode);
        }
    }

    @Test
    void aNewFolderHasExactlyTheModeAskedForOnAPlainFolderAndInAVault() throws IOException {
        Files.createDirectory(tmp.resolve("plain"));
        try (var vault = dev.coffer.core.nio.CofferFileSystems.create(tmp.resolve("vault"), "test passphrase".toCharArray(),
                VaultMountTest.FAST)) {
            for (Path root : new Path[] {tmp.resolve("plain"), vault.getPath("/")}) {
                NewEntryModes modes = new NewEntryModes(new Backing(root, 0, 0));
                int[] asked = {0700, 0750, 0755, 0775, 0777, 0555, 0500, 0300, 0000, 0020};
                for (int mode : asked) {
                    Path p = root.resolve("d" + Integer.toOctalString(mode));
                    Files.createDirectory(p, modes.atCreation(mode));
                    modes.afterCreation(p, mode);
                    assertThat(StatFiller.mode(Files.getPosixFilePermissions(p))).as("%s mode %o", root, mode).isEqualTo(mode);
                    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------")); // to clear it as any user
                }
            }
        }
    }

    @Test
    void theChmodIsMadeOnlyWhereTheUmaskMayHaveRemovedAnAskedForBit() throws IOException {
        Path p = Files.createFile(tmp.resolve("f"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Backing backing = new Backing(tmp, 0, 0);

        new NewEntryModes(backing, 022).afterCreation(p, 0644); // 022 keeps all of 0644: nothing to mend
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).isEqualTo("rw-------");

        new NewEntryModes(backing, 022).afterCreation(p, 0664); // 022 removes g+w
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).isEqualTo("rw-rw-r--");

        new NewEntryModes(backing, ProcessUmask.UNKNOWN).afterCreation(p, 0600);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).isEqualTo("rw-------");
    }

    @Test
    void whereTheBackingKeepsNoPermissionsNoneAreGiven() throws IOException {
        try (var fs = com.google.common.jimfs.Jimfs.newFileSystem(com.google.common.jimfs.Configuration.unix()
                .toBuilder().setAttributeViews("basic").build())) {
            Path root = fs.getPath("/");
            NewEntryModes modes = new NewEntryModes(new Backing(root, 0, 0));
            assertThat(modes.atCreation(0600)).isEmpty();
            Path p = Files.createFile(root.resolve("f"), modes.atCreation(0600));
            modes.afterCreation(p, 0664); // nowhere to store it: nothing is tried
            assertThat(Files.exists(p)).isTrue();
        }
    }
}
