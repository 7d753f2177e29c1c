package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rename(2) over a file that a program has open, through a real mount of a real vault. libfuse first
 * moves the open file to a kept name and then asks for the rename: a rename that then fails must
 * leave the file where it was (libfuse would delete the kept file at its last close), and one that
 * succeeds replaces it while the open handle keeps reading the old bytes.
 */
class RenameOverOpenFileTest {
    @TempDir
    Path tmp;
    private VaultMount vm;

    @BeforeEach
    void mount() throws IOException {
        vm = new VaultMount(tmp);
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        vm.close();
    }

    /**
     * The store refuses the rename after libfuse has moved the open target away: here the source lies
     * on another file system inside a plain-folder mount, so the store copies it, into a full disk.
     * (On a vault, a folder the user may not change or a long name on a full disk do the same.)
     */
    @Test
    void aRenameOverAnOpenFileThatTheStoreRefusesLeavesTheFile() throws Exception {
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                TmpfsMount other = TmpfsMount.mount(small.dir().resolve("other"), 8)) {
            Mounts mounts = new Mounts();
            try {
                FuseMount m = mounts.mount(small.dir(), tmp.resolve("plain"));
                Path mnt = m.mountPoint();
                Path file = Files.writeString(mnt.resolve("open.txt"), "keep me");
                Files.write(other.dir().resolve("big.bin"), new byte[1 << 20]);
                small.fill("ballast.bin");
                try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
                    assertThatThrownBy(() -> Files.move(mnt.resolve("other/big.bin"), file, StandardCopyOption.ATOMIC_MOVE))
                            .isInstanceOf(FileSystemException.class).hasMessageContaining("No space left");
                    assertThat(Files.readString(file)).as("the file is where it was, at once").isEqualTo("keep me");
                    assertThat(read(open)).isEqualTo("keep me");
                }
                Mounts.awaitReleased(m.adapter());
                assertThat(Files.readString(file)).as("and after its last close").isEqualTo("keep me");
                assertThat(Files.readString(small.dir().resolve("open.txt"))).isEqualTo("keep me");
                try (Stream<Path> s = Files.list(mnt)) {
                    assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("open.txt", "other", "ballast.bin");
                }
                assertThat(Files.size(other.dir().resolve("big.bin"))).isEqualTo(1 << 20);
            } finally {
                mounts.close();
            }
        }
    }

    @Test
    void aFileRenamedOverAnOpenFileReplacesItAndTheHandleKeepsTheOldBytes() throws Exception {
        Path file = Files.writeString(vm.mnt.resolve("open.txt"), "old bytes");
        Path next = Files.writeString(vm.mnt.resolve("next.txt"), "new bytes, longer");
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE);
            assertThat(Files.readString(file)).isEqualTo("new bytes, longer");
            assertThat(read(open)).isEqualTo("old bytes");
            assertThat(names()).containsExactly("open.txt");
        }
        Mounts.awaitReleased(vm.mount.adapter());
        assertThat(Files.readString(file)).isEqualTo("new bytes, longer");
        assertThat(names()).containsExactly("open.txt");
    }

    @Test
    void aFileUnlinkedWhileOpenIsGoneAndItsNameCanBeUsedAgain() throws Exception {
        Path file = Files.writeString(vm.mnt.resolve("temp.txt"), "temporary");
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            Files.delete(file);
            assertThat(names()).isEmpty();
            assertThat(read(open)).isEqualTo("temporary");
            Files.writeString(file, "a new file under the old name");
        }
        Mounts.awaitReleased(vm.mount.adapter());
        assertThat(Files.readString(file)).isEqualTo("a new file under the old name");
    }

    /**
     * Kept names are libfuse's (it only renames to them): a program creating one or renaming a file to
     * one, as a copy of another FUSE file system's leftovers would, is refused rather than given a file
     * out of sight that the end of the mount deletes.
     */
    @Test
    void aProgramCannotCreateAKeptName() throws Exception {
        String kept = ".fuse_hidden0000000a00000001";
        assertThatThrownBy(() -> Files.writeString(vm.mnt.resolve(kept), "leftover"))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not permitted");
        assertThatThrownBy(() -> Files.createDirectory(vm.mnt.resolve(kept)))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not permitted");
        assertThatThrownBy(() -> Files.createSymbolicLink(vm.mnt.resolve(kept), Path.of("target")))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not permitted");
        Path mine = Files.writeString(vm.mnt.resolve("mine.txt"), "mine");
        assertThatThrownBy(() -> Files.move(mine, vm.mnt.resolve(kept), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not permitted");
        assertThat(names()).containsExactly("mine.txt");
        assertThat(Files.exists(vm.fs.getPath("/" + Backing.UNLINKED))).as("nothing went to the reserved folder").isFalse();
    }


    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(vm.mnt)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }

    private static String read(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(256);
        ch.read(buf, 0);
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }
}
