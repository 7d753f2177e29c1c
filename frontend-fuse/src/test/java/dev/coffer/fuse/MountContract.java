package dev.coffer.fuse;

import dev.coffer.core.nio.FileSystemContract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's behavioural suite ({@link FileSystemContract}, from core's test-jar), run through a real FUSE
 * mount with java.nio on the default file system: the same checks, plus the POSIX ones a mount adds
 * (permissions, errno through the kernel). Subclasses supply the tree behind the mount: a plain
 * folder, a vault, a Jimfs folder.
 */
abstract class MountContract extends FileSystemContract {
    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();
    private Path mnt;

    /** The empty, writable tree to serve. */
    protected abstract Path backingRoot(Path tmp) throws IOException;

    /** Closes what {@link #backingRoot} opened, after the unmount. */
    protected void closeBacking() throws IOException {}

    @BeforeEach
    void mount() throws IOException {
        mnt = mounts.mount(backingRoot(tmp), tmp.resolve("mnt")).mountPoint();
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            mounts.close();
        } finally {
            closeBacking();
        }
    }

    @Override
    protected Path root() {
        return mnt;
    }

    @Test
    void renameFollowsPosix() throws IOException {
        Path r = root();
        Files.createDirectories(r.resolve("full/inside"));
        Files.createDirectory(r.resolve("empty"));
        Files.createDirectory(r.resolve("src"));
        Files.writeString(r.resolve("src/f"), "f");
        Files.writeString(r.resolve("file"), "file");
        // rename(2) itself (ATOMIC_MOVE), not the default provider's delete-then-rename
        Files.move(r.resolve("src"), r.resolve("empty"), StandardCopyOption.ATOMIC_MOVE);
        assertThat(Files.readString(r.resolve("empty/f"))).isEqualTo("f");
        assertThatThrownBy(() -> Files.move(r.resolve("empty"), r.resolve("full"), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("not empty");
        assertThatThrownBy(() -> Files.move(r.resolve("file"), r.resolve("full"), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Is a directory");
        assertThatThrownBy(() -> Files.move(r.resolve("empty"), r.resolve("file"), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Not a directory");
        assertThatThrownBy(() -> Files.move(r.resolve("full"), r.resolve("full/inside/x"), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Invalid argument");
        assertThat(Files.readString(r.resolve("file"))).isEqualTo("file");
        assertThat(Files.isDirectory(r.resolve("full/inside"))).isTrue();
    }

    @Test
    void permissionsAreStoredAndCreatedModesKept() throws IOException {
        Path r = root();
        Path f = Files.writeString(r.resolve("script.sh"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rwxr-x---");
        assertThat(Files.isExecutable(f)).isTrue();
        Path d = Files.createDirectory(r.resolve("private"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d))).isEqualTo("rwx------");
        Path g = Files.createFile(r.resolve("secret"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(g))).isEqualTo("rw-------");
    }
}
