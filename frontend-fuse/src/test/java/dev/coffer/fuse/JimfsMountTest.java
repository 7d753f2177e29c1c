package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.nio.file.FileSystem;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter serves any Path: an in-memory Jimfs tree, mounted and used with ordinary tools. */
class JimfsMountTest {
    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();
    private final FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix().toBuilder()
            .setAttributeViews("basic", "owner", "posix", "unix").build());

    @AfterEach
    void unmount() throws Exception {
        try {
            mounts.close();
        } finally {
            jimfs.close();
        }
    }

    @Test
    void aJimfsTreeWorksThroughTheMount() throws Exception {
        Path root = Files.createDirectories(jimfs.getPath("/served"));
        Files.writeString(root.resolve("inside.txt"), "from jimfs");
        Path mnt = mounts.mount(root, tmp.resolve("mnt")).mountPoint();

        assertThat(Files.readString(mnt.resolve("inside.txt"))).isEqualTo("from jimfs");
        Files.createDirectories(mnt.resolve("a/b"));
        Files.writeString(mnt.resolve("a/b/new.txt"), "to jimfs");
        assertThat(Files.readString(root.resolve("a/b/new.txt"))).isEqualTo("to jimfs");
        Files.move(mnt.resolve("a/b/new.txt"), mnt.resolve("inside.txt"), StandardCopyOption.ATOMIC_MOVE);
        assertThat(Files.readString(root.resolve("inside.txt"))).isEqualTo("to jimfs");
        Files.createSymbolicLink(mnt.resolve("link"), Path.of("inside.txt"));
        assertThat(Files.readSymbolicLink(root.resolve("link")).toString()).isEqualTo("inside.txt");
        Files.setPosixFilePermissions(mnt.resolve("inside.txt"), PosixFilePermissions.fromString("rwx------"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("inside.txt")))).isEqualTo("rwx------");
        Shell.ok(tmp, "cp", "-r", mnt.resolve("a").toString(), tmp.resolve("copy").toString());
        assertThat(Files.isDirectory(tmp.resolve("copy/b"))).isTrue();
        try (Stream<Path> s = Files.list(mnt)) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList()).isEqualTo(List.of("a", "inside.txt", "link"));
        }
        assertThatThrownBy(() -> Files.readString(mnt.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.delete(mnt.resolve("a"))).isInstanceOf(DirectoryNotEmptyException.class);
    }
}
