package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two mounts started at the same moment on one empty folder: one mounts, the other is refused with
 * a message naming the folder, and the folder holds exactly one mount (not two stacked, the upper one
 * hiding the lower, whose owner would then unmount the wrong one).
 */
class MountPointRaceTest {
    private static final int ROUNDS = 5;

    @TempDir
    Path tmp;

    private final List<FuseMount> mounted = new ArrayList<>();
    private final List<Path> points = new ArrayList<>();

    @AfterEach
    void unmountEverything() throws Exception {
        List<IOException> failures = new ArrayList<>();
        for (FuseMount m : mounted) {
            try {
                m.close();
            } catch (IOException e) { // a stacked mount's lower one cannot end: cleared below
                failures.add(e);
            }
        }
        for (Path p : points) {
            for (int i = 0; i < 4 && MountTable.isMounted(p); i++) { // stacked mounts need one unmount each
                new ProcessBuilder("fusermount", "-u", "-z", p.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(MountTable.isMounted(p)).as("%s still mounted after the test", p).isFalse();
        }
        assertThat(failures).as("mounts that did not unmount cleanly").isEmpty();
    }

    @Test
    void twoMountsStartedAtOnceOnOneEmptyFolderGiveOneMountAndOneClearRefusal() throws Exception {
        race(round -> Files.createDirectory(tmp.resolve("mnt" + round)).toRealPath(), mnt -> mnt);
    }

    /** One names the folder, the other a link to it: the same folder all the same. */
    @Test
    void aLinkToTheFolderAndTheFolderAreOneMountPoint() throws Exception {
        race(round -> Files.createDirectory(tmp.resolve("real" + round)).toRealPath(),
                mnt -> Files.createSymbolicLink(tmp.resolve("link-" + mnt.getFileName()), mnt));
    }

    /** A folder of round {@code round} (each round its own), for a later round's mount of a fresh one. */
    private interface Folder {
        Path make(int round) throws IOException;
    }

    /** Another name for the folder. */
    private interface Name {
        Path of(Path folder) throws IOException;
    }

    /** Mounts twice at once, the first by the folder's path, the second by {@code secondName}; one wins. */
    private void race(Folder folders, Name secondName) throws Exception {
        // An empty tree (a new vault): libfuse refuses to mount on a non-empty folder, so only the
        // first mount's files would have kept the second off.
        Path backing = Files.createDirectory(tmp.resolve("backing"));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Path mnt = folders.make(round);
                points.add(mnt);
                List<Path> names = List.of(mnt, secondName.of(mnt));
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<FuseMount>> attempts = new ArrayList<>();
                for (Path name : names) {
                    attempts.add(threads.submit(() -> {
                        start.await();
                        return FuseMount.mount(backing, name, MountOptions.defaults(false));
                    }));
                }
                List<Throwable> refusals = new ArrayList<>();
                for (Future<FuseMount> attempt : attempts) {
                    try {
                        mounted.add(attempt.get(60, TimeUnit.SECONDS));
                    } catch (java.util.concurrent.ExecutionException e) {
                        refusals.add(e.getCause());
                    }
                }
                long stacked = MountTable.entries().stream().filter(e -> e.mountPoint().equals(mnt)).count();
                assertThat(stacked).as("mounts at %s in round %d", mnt, round).isEqualTo(1);
                assertThat(refusals).as("round %d", round).hasSize(1);
                assertThat(refusals.get(0)).isInstanceOf(MountPointException.class).hasMessageContaining(mnt.toString());
                Files.writeString(mnt.resolve("round.txt"), "round " + round);
                assertThat(Files.readString(backing.resolve("round.txt"))).isEqualTo("round " + round);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
