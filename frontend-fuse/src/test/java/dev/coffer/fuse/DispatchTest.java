package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dispatch design's promise: a slow read never blocks ls of another folder, nor other reads. */
class DispatchTest {
    private static final long SLOW_MILLIS = 3_000;

    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();

    @AfterEach
    void unmount() throws Exception {
        mounts.close();
    }

    @Test
    void aSlowReadDoesNotBlockListingAnotherFolder() throws Exception {
        Path backing = Files.createDirectory(tmp.resolve("backing"));
        Files.createDirectories(backing.resolve("slow"));
        Files.writeString(backing.resolve("slow/file"), "slow content");
        Files.createDirectories(backing.resolve("other"));
        Files.writeString(backing.resolve("other/quick"), "quick");
        SlowAdapter[] adapter = new SlowAdapter[1];
        Path mnt = mounts.mount(backing, tmp.resolve("mnt"), MountOptions.defaults(false), (root, uid, gid) -> {
            adapter[0] = new SlowAdapter(root, uid, gid, SLOW_MILLIS);
            return adapter[0];
        }).mountPoint();

        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(mnt.resolve("slow/file"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(adapter[0].slowReadStarted.await(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        List<String> listed;
        try (Stream<Path> s = Files.list(mnt.resolve("other"))) {
            listed = s.map(p -> p.getFileName().toString()).toList();
        }
        String quick = Files.readString(mnt.resolve("other/quick"));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(listed).containsExactly("quick");
        assertThat(quick).isEqualTo("quick");
        assertThat(slow).as("the slow read is still going").isNotDone();
        assertThat(millis).as("ls and a read of another folder during a %d ms read", SLOW_MILLIS).isLessThan(SLOW_MILLIS / 3);
        assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo("slow content");
    }
}
