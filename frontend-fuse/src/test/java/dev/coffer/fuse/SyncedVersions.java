package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * A file written through a mount of a vault in two versions, the first one's ciphertext kept aside as
 * another device's, which {@link #sync} renames over the file's ciphertext as a sync client does;
 * and the reads and adapters the tests of a synced file's size share.
 */
final class SyncedVersions {
    private SyncedVersions() {}

    /** {@code file}, its ciphertext, the other device's ciphertext kept aside and that version's content. */
    record Prepared(Path file, Path cipher, Path otherCipher, byte[] other) {}

    /** Writes {@code other} (its ciphertext kept in {@code aside}), then {@code now}, and stats the file. */
    static Prepared prepare(VaultMount vm, Path aside, Path file, byte[] other, byte[] now)
            throws IOException, InterruptedException {
        Set<Path> before = ciphertexts(vm);
        Files.write(file, other);
        Set<Path> after = ciphertexts(vm);
        after.removeAll(before);
        assertThat(after).as("one new ciphertext for %s", file).hasSize(1);
        Path cipher = after.iterator().next();
        Path kept = Files.copy(cipher, aside.resolve("synced-" + System.nanoTime()));
        Files.write(file, now);
        assertThat(Files.size(file)).as("the kernel holds this size").isEqualTo(now.length);
        // The kernel sends a close's release on its own time: a sync before it would orphan a changed
        // open file, which the vault keeps as a conflict copy (a second new ciphertext next round).
        Mounts.awaitReleased(vm.mount.adapter());
        return new Prepared(file, cipher, kept, other);
    }

    /** The sync client's way: the other version written beside, then renamed over the ciphertext. */
    static void sync(Prepared p) throws IOException {
        Path incoming = p.cipher().resolveSibling("incoming.tmp");
        Files.copy(p.otherCipher(), incoming, StandardCopyOption.REPLACE_EXISTING);
        Files.move(incoming, p.cipher(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads {@code file} to its end in 4 KiB reads, without a stat first. */
    static byte[] readInPieces(Path file) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            ByteBuffer piece = ByteBuffer.allocate(4096);
            while (in.read(piece.clear()) > 0) {
                all.write(piece.array(), 0, piece.position());
            }
            return all.toByteArray();
        }
    }

    static byte[] content(int length, int seed) {
        byte[] content = new byte[length];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + i / 251 + seed);
        }
        return content;
    }

    /** The vault's files' ciphertexts (its folders' and links' files aside). */
    static Set<Path> ciphertexts(VaultMount vm) throws IOException {
        try (Stream<Path> s = Files.walk(vm.vault.resolve("d"))) {
            return s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".c9r"))
                    .filter(p -> !p.getFileName().toString().matches("(dir|dirid|symlink)\\.c9r"))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    /**
     * An adapter whose getattr of {@code path}, while {@code slow} is set, answers {@code millis} late
     * (after its size was noted), as a loaded worker or a GC pause may.
     */
    static FuseMount.AdapterFactory slowGetattr(AtomicBoolean slow, String path, long millis) {
        return (root, uid, gid) -> new FuseAdapter(root, uid, gid) {
            @Override
            public int getattr(String p, FileStat stat) {
                int r = super.getattr(p, stat);
                if (slow.get() && p.equals(path)) {
                    try {
                        Thread.sleep(millis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return r;
            }
        };
    }
}
