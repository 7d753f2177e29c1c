package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * Read-only opens are answered with FOPEN_NOFLUSH ({@link NoFlushReplies}), through a real mount of a
 * real vault: closing a file opened for reading sends the mount no FLUSH, closing one opened for
 * writing still does (a failure written behind must reach close(2)), a refused read-only open still
 * fails with its own errno, many threads opening files at once all read the right bytes and release
 * every handle, and O_RDONLY|O_TRUNC truncates (as Linux does) although the handle reads only.
 * Needs Linux 5.16 or later (the kernel's FOPEN_NOFLUSH).
 */
class NoFlushMountTest {
    @TempDir
    Path tmp;
    private VaultMount vm;
    private FlushCountingAdapter adapter;

    private void mount() throws IOException {
        vm = new VaultMount(tmp, MountOptions.defaults(false),
                (root, uid, gid) -> adapter = new FlushCountingAdapter(root, uid, gid));
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (vm != null) {
            vm.close();
        }
    }

    @Test
    void closingAFileOpenedForReadingSendsNoFlush() throws Exception {
        mount();
        Path f = vm.mnt.resolve("read-me.txt");
        Files.writeString(f, "content");
        int before = adapter.flushes.get();
        for (int i = 0; i < 5; i++) {
            assertThat(Files.readString(f)).isEqualTo("content");
        }
        assertThat(Shell.ok(vm.mnt, "cat", "read-me.txt")).isEqualTo("content");
        assertThat(adapter.opens.get()).as("read-only opens").isGreaterThanOrEqualTo(6);
        assertThat(adapter.flushes.get() - before).as("FLUSH requests for 6 read-only closes (needs Linux 5.16+)").isZero();
    }

    @Test
    void closingAFileOpenedForWritingStillFlushes() throws Exception {
        mount();
        Path f = vm.mnt.resolve("written.txt");
        Files.writeString(f, "first");
        int afterCreate = adapter.flushes.get();
        assertThat(afterCreate).as("the create's close").isPositive();
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("F".getBytes(StandardCharsets.UTF_8)), 0);
        }
        int afterWrite = adapter.flushes.get();
        assertThat(afterWrite).as("an O_WRONLY close").isGreaterThan(afterCreate);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("I".getBytes(StandardCharsets.UTF_8)), 1);
        }
        assertThat(adapter.flushes.get()).as("an O_RDWR close").isGreaterThan(afterWrite);
        assertThat(Files.readString(f)).isEqualTo("FIrst");
    }

    @Test
    void aRefusedReadOnlyOpenFailsWithItsErrnoAndTheMountGoesOn() throws Exception {
        mount();
        Files.writeString(vm.mnt.resolve("denied.txt"), "secret");
        Files.writeString(vm.mnt.resolve("fine.txt"), "fine");
        adapter.refuse = "/denied.txt";
        assertThatThrownBy(() -> Files.readString(vm.mnt.resolve("denied.txt"))).isInstanceOf(AccessDeniedException.class);
        assertThat(Files.readString(vm.mnt.resolve("fine.txt"))).isEqualTo("fine");
        adapter.refuse = null;
        assertThat(Files.readString(vm.mnt.resolve("denied.txt"))).isEqualTo("secret");
    }

    @Test
    void manyThreadsOpeningFilesForReadingAtOnceReadTheirOwnBytes() throws Exception {
        mount();
        int files = 64;
        for (int i = 0; i < files; i++) {
            Files.writeString(vm.mnt.resolve("f" + i), "file " + i + " ".repeat(i * 97));
        }
        int before = adapter.flushes.get();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> {
                    int checked = 0;
                    for (int round = 0; round < 10; round++) {
                        for (int i = 0; i < files; i++) {
                            assertThat(Files.readString(vm.mnt.resolve("f" + i))).isEqualTo("file " + i + " ".repeat(i * 97));
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            for (Future<Integer> r : results) {
                assertThat(r.get()).isEqualTo(10 * files);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(adapter.flushes.get() - before).as("FLUSH requests for 5,120 read-only closes").isZero();
        // Release is now the only request a close sends: every handle must still be given back.
        Mounts.awaitReleased(adapter);
        assertThat(adapter.openHandles()).as("handles left open after every file was closed").isZero();
    }

    /** Linux truncates on O_RDONLY|O_TRUNC; with atomic_o_trunc the kernel leaves that to the mount. */
    @Test
    void anOpenForReadingWithTruncateTruncates() throws Exception {
        mount();
        Path f = vm.mnt.resolve("to-empty.txt");
        Files.writeString(f, "some content");
        Shell.ok(vm.mnt, "perl", "-MFcntl", "-e", "sysopen(my $f, $ARGV[0], O_RDONLY | O_TRUNC) or die \"$!\"", "to-empty.txt");
        assertThat(Files.size(f)).isZero();
        assertThat(Shell.ok(vm.mnt, "cat", "to-empty.txt")).isEmpty();
        assertThat(Files.size(vm.fs.getPath("/to-empty.txt"))).as("in the vault itself").isZero();
    }

    /** Counts flush and open calls; refuses the open of one path with EACCES when told. */
    static final class FlushCountingAdapter extends FuseAdapter {
        final AtomicInteger flushes = new AtomicInteger();
        final AtomicInteger opens = new AtomicInteger();
        volatile String refuse;

        FlushCountingAdapter(Path root, long uid, long gid) {
            super(root, uid, gid);
        }

        @Override
        public int open(String path, FuseFileInfo fi) {
            opens.incrementAndGet();
            if (path.equals(refuse)) {
                return -ErrorCodes.EACCES();
            }
            return super.open(path, fi);
        }

        @Override
        public int flush(String path, FuseFileInfo fi) {
            flushes.incrementAndGet();
            return super.flush(path, fi);
        }
    }
}
