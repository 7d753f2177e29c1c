package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import jnr.constants.platform.darwin.OpenFlags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open flags are read as the running system spells them: Linux's values here, and on a Mac its own,
 * where Linux's O_APPEND bit is O_TRUNC and Linux's O_TRUNC bit is O_CREAT.
 */
class OpenFlagBitsTest {
    @TempDir
    Path tmp;

    /** macOS's values, as its sys/fcntl.h has them. */
    private static final OpenFlagBits DARWIN = new OpenFlagBits(3, 1, 2, 0x800, 0x400, 0x8);
    private static final int DARWIN_O_CREAT = 0x200;

    /** What OpenFlagBits.HOST would take on a Mac: jnr-constants' table for Darwin. */
    @Test
    void jnrConstantsHasMacOSValues() {
        assertThat(new OpenFlagBits(OpenFlags.O_ACCMODE.intValue(), OpenFlags.O_WRONLY.intValue(), OpenFlags.O_RDWR.intValue(),
                OpenFlags.O_EXCL.intValue(), OpenFlags.O_TRUNC.intValue(), OpenFlags.O_APPEND.intValue())).isEqualTo(DARWIN);
        assertThat(OpenFlags.O_CREAT.intValue()).isEqualTo(DARWIN_O_CREAT);
    }

    /** A system jnr-constants has no table for gets a made-up one (O_ACCMODE 8, O_WRONLY 2...): Linux's then. */
    @Test
    void madeUpValuesAreNotTaken() {
        assertThat(OpenFlagBits.plausible(new OpenFlagBits(8, 2, 4, 0x10, 0x2000, 0x20), 1)).isEqualTo(OpenFlagBits.LINUX);
        assertThat(OpenFlagBits.plausible(DARWIN, 0)).isEqualTo(DARWIN);
    }

    @Test
    void thisLinuxSpellsThemAsTheKernelDoes() {
        assertThat(System.getProperty("os.name")).isEqualTo("Linux");
        assertThat(OpenFlagBits.HOST).isEqualTo(OpenFlagBits.LINUX);
        assertThat(OpenFlagBits.LINUX).isEqualTo(new OpenFlagBits(
                jnr.constants.platform.linux.OpenFlags.O_ACCMODE.intValue(), jnr.constants.platform.linux.OpenFlags.O_WRONLY.intValue(),
                jnr.constants.platform.linux.OpenFlags.O_RDWR.intValue(), jnr.constants.platform.linux.OpenFlags.O_EXCL.intValue(),
                jnr.constants.platform.linux.OpenFlags.O_TRUNC.intValue(), jnr.constants.platform.linux.OpenFlags.O_APPEND.intValue()));
        assertThat(OpenFlagBits.LINUX.appends(02000 | 01)).isTrue();
        assertThat(OpenFlagBits.LINUX.truncates(01000 | 01)).isTrue();
    }

    @Test
    void aMacsCreatingOpenDoesNotTruncateAndItsTruncatingOneDoes() throws IOException {
        FileOps files = files(DARWIN);
        Path kept = Files.writeString(tmp.resolve("kept"), "content");
        files.release(files.open("/kept", DARWIN.writeOnly() | DARWIN_O_CREAT));
        assertThat(kept).hasContent("content");

        Path cut = Files.writeString(tmp.resolve("cut"), "content");
        files.release(files.open("/cut", DARWIN.writeOnly() | DARWIN.truncate()));
        assertThat(Files.size(cut)).isZero();
    }

    @Test
    void aMacsAppendIsAnAppendAndItsTruncateIsNot() {
        FileOps files = files(DARWIN);
        assertThat(files.appends(DARWIN.writeOnly() | DARWIN.append())).isTrue();
        assertThat(files.appends(DARWIN.writeOnly() | DARWIN.truncate())).isFalse();
    }

    @Test
    void aMacsExclusiveCreateRefusesAnExistingFile() throws IOException {
        FileOps files = files(DARWIN);
        Files.writeString(tmp.resolve("there"), "content");
        assertThatThrownBy(() -> files.create("/there", 0644, DARWIN.readWrite() | DARWIN_O_CREAT
                | DARWIN.exclusive())).as("macFUSE's create").isInstanceOf(FileAlreadyExistsException.class);
        assertThat(tmp.resolve("there")).as("not emptied").hasContent("content");
        files.release(files.create("/there", 0644, DARWIN.readWrite() | DARWIN_O_CREAT));
        assertThat(tmp.resolve("there")).hasContent("content");
    }

    private FileOps files(OpenFlagBits bits) {
        return new FileOps(new Backing(tmp, 0, 0), new OpenFileTable(), new ContentChanges(), StreamTiming.MOUNT, bits, () -> 0);
    }
}
