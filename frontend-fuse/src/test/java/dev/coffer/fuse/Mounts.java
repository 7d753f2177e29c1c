package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: mounts trees under a test's temporary folder and, in {@code @AfterEach}, unmounts
 * every one of them (forced if busy, {@code fusermount -u -z} as the last resort) and fails the
 * test if any mount point is still in the mount table. FUSE missing is a failure, never a skip.
 */
final class Mounts {
    private final List<FuseMount> mounts = new ArrayList<>();
    private final List<Path> points = new ArrayList<>();

    FuseMount mount(Path root, Path mountPoint) throws IOException {
        return mount(root, mountPoint, MountOptions.defaults(false));
    }

    FuseMount mount(Path root, Path mountPoint, MountOptions options) throws IOException {
        return mount(root, mountPoint, options, FuseAdapter::new);
    }

    FuseMount mount(Path root, Path mountPoint, MountOptions options, FuseMount.AdapterFactory adapters) throws IOException {
        points.add(mountPoint.toAbsolutePath().normalize());
        FuseMount m = FuseMount.mount(root, mountPoint, options, adapters);
        mounts.add(m);
        assertThat(MountTable.isMounted(m.mountPoint())).as("mounted at %s", m.mountPoint()).isTrue();
        return m;
    }

    /**
     * Waits (up to 10 s) until {@code adapter} holds no open handle: the kernel sends a close's
     * release after the program has moved on, on its own time. The caller asserts the outcome.
     */
    static void awaitReleased(FuseAdapter adapter) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (adapter.openHandles() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /** Unmounts everything this helper mounted; fails if anything stays mounted. */
    void close() throws IOException, InterruptedException {
        List<String> leftovers = new ArrayList<>();
        for (FuseMount m : mounts) {
            try {
                m.close();
            } catch (IOException e) {
                leftovers.add(m.mountPoint() + " (" + e + ")");
            }
        }
        for (Path p : points) {
            if (MountTable.isMounted(p)) {
                new ProcessBuilder("fusermount", "-u", "-z", p.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
                leftovers.add(p + " was still mounted");
            }
        }
        for (Path p : points) {
            assertThat(MountTable.isMounted(p)).as("%s still mounted after the test", p).isFalse();
        }
        assertThat(leftovers).as("mounts that did not unmount cleanly").isEmpty();
    }
}
