package dev.coffer.fuse;

import static dev.coffer.fuse.SyncedVersions.content;
import static dev.coffer.fuse.SyncedVersions.prepare;
import static dev.coffer.fuse.SyncedVersions.readInPieces;
import static dev.coffer.fuse.SyncedVersions.slowGetattr;
import static dev.coffer.fuse.SyncedVersions.sync;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import jnr.ffi.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * The ways a synced file's size could still reach a program wrong that session 38's second review
 * found (each failed with the form of the fix it reviewed), and the page cache kept in normal use
 * (the review measured FUSE_AUTO_INVAL_DATA dropping it at every read after a write: 200 READs for
 * 200 reads of cached pages, SQLite's updates and table scans 3-4x slower; the flag was dropped).
 */
class KernelSizeRacesMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (vm != null) {
            vm.close();
        }
    }

    /**
     * A program holds the file open past the attribute cache time, the sync client deletes the
     * ciphertext and then writes the other device's version (not an atomic rename), and the holding
     * program reads once in between (fgetattr: the name gone, the handle's size given). A program
     * that then opens the name reads the new version whole. attr_timeout is shorter than
     * entry_timeout, so no lookup refreshes the name.
     */
    @Test
    void aFreshOpenAfterADeleteThenCreateSyncReadsWhole() throws Exception {
        vm = new VaultMount(tmp, MountOptions.defaults(false).withFuseOptions(List.of("attr_timeout=1")), FuseAdapter::new);
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("held.txt"), content(100_000, 1), "short".getBytes());
        try (FileChannel holder = FileChannel.open(p.file(), StandardOpenOption.READ)) {
            Thread.sleep(2_500); // past the attribute cache time (1 s): the kernel's attributes expire, the entry not
            Files.delete(p.cipher()); // the sync client: delete ...
            assertThat(holder.read(ByteBuffer.allocate(100), 0)).isEqualTo(5); // the holder reads its file
            Files.copy(p.otherCipher(), p.cipher()); // ... then create
            assertThat(readInPieces(p.file())).isEqualTo(p.other());
        }
    }

    /**
     * Normal use, no sync client: one descriptor alternately writes a page and reads another page
     * of a 16 MiB file it has read once, then writes and scans the file: the reads are answered from
     * the page cache.
     */
    @Test
    void interleavedWritesAndReadsKeepThePageCache() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        vm = new VaultMount(tmp, MountOptions.defaults(false), (root, uid, gid) -> new FuseAdapter(root, uid, gid) {
            @Override
            public int read(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
                reads.incrementAndGet();
                return super.read(path, buf, size, offset, fi);
            }
        });
        Path file = vm.mnt.resolve("db.bin");
        Files.write(file, content(16 << 20, 2));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < (16 << 20); at += b.capacity()) {
                ch.read(b.clear(), at);
            }
            int readsBefore = reads.get();
            ByteBuffer page = ByteBuffer.allocate(4096);
            for (int i = 0; i < 200; i++) {
                ch.write(ByteBuffer.wrap(content(4096, i)), (long) (i % 64) * 4096);
                ch.read(page.clear(), (8L << 20) + (long) (i * 7919 % 2048) * 4096);
            }
            for (int i = 0; i < 10; i++) { // a write, then a scan of the file (a database's table scan)
                ch.write(ByteBuffer.wrap(content(4096, i)), (long) i * 4096);
                for (long at = 0; at < (16 << 20); at += b.capacity()) {
                    ch.read(b.clear(), at);
                }
            }
            assertThat(reads.get() - readsBefore).as("READs for reads of pages already read, after writes").isLessThan(20);
        }
    }

    /**
     * Two stats of one file overlap across a sync: the first reads the old size, the second the new
     * one, each answered 300 ms after its size was noted. The kernel keeps the first answer it takes
     * and drops the other (its attribute version is older), whichever was noted last.
     */
    @Test
    void overlappingStatsAcrossASyncReadWhole() throws Exception {
        AtomicBoolean slow = new AtomicBoolean();
        vm = new VaultMount(tmp, MountOptions.defaults(false), slowGetattr(slow, "/race.txt", 300));
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("race.txt"), content(100_000, 3), "short".getBytes());
        Files.write(p.file(), "short".getBytes()); // the kernel's attributes are stale after its own write
        slow.set(true);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Future<Long> first = two.submit(() -> Files.size(p.file()));
            Thread.sleep(50);
            sync(p);
            Thread.sleep(50);
            Future<Long> second = two.submit(() -> Files.size(p.file()));
            first.get();
            second.get();
        } finally {
            two.shutdown();
        }
        slow.set(false);
        assertThat(readInPieces(p.file())).isEqualTo(p.other());
    }

    /**
     * ls -l of the folder while the kernel still holds the file's old size, valid: the READDIRPLUS
     * lookup notes the new size before its answer reaches the kernel (here 400 ms later, as the
     * batch's other lookups would delay it). A program opening the file meanwhile reads it whole.
     */
    @Test
    void anOpenWhileAListingsLookupIsNotedButNotAnsweredReadsWhole() throws Exception {
        AtomicBoolean slow = new AtomicBoolean();
        vm = new VaultMount(tmp, MountOptions.defaults(false), slowGetattr(slow, "/d/f.txt", 400));
        Files.createDirectory(vm.mnt.resolve("d"));
        SyncedVersions.Prepared p = prepare(vm, tmp, vm.mnt.resolve("d/f.txt"), content(100_000, 4), "short".getBytes());
        sync(p);
        Thread.sleep(6_000); // past RecentEntries' 5 s: the listing looks the name up again; the attributes are still valid
        slow.set(true);
        Thread ls = new Thread(() -> {
            try (Stream<Path> list = Files.list(vm.mnt.resolve("d"))) {
                list.count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        ls.start();
        Thread.sleep(150);
        byte[] read = readInPieces(p.file());
        ls.join();
        slow.set(false);
        assertThat(read).isEqualTo(p.other());
    }
}
