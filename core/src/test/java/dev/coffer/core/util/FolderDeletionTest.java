package dev.coffer.core.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removing storage and entry folders: an empty folder goes, on the default file system (rmdir(2)) and
 * elsewhere (NIO); a folder that holds something is kept, and so is a file or link at the path where
 * rmdir is asked.
 */
class FolderDeletionTest {
    @TempDir
    Path tmp;
    private FileSystem memory;

    @BeforeEach
    void memory() {
        memory = Jimfs.newFileSystem(Configuration.unix());
    }

    @AfterEach
    void close() throws IOException {
        memory.close();
    }

    private List<Path> places() {
        return List.of(tmp, memory.getPath("/"));
    }

    @Test
    void anEmptyFolderIsRemoved() throws IOException {
        for (Path dir : places()) {
            Path a = Files.createDirectory(dir.resolve("a"));
            Path b = Files.createDirectory(dir.resolve("b"));
            assertThat(FolderDeletion.removeIfEmpty(a)).isEqualTo(FolderDeletion.Outcome.REMOVED);
            FolderDeletion.remove(b);
            assertThat(a).as(dir.toString()).doesNotExist();
            assertThat(b).as(dir.toString()).doesNotExist();
        }
    }

    @Test
    void aFolderThatHoldsSomethingIsKept() throws IOException {
        for (Path dir : places()) {
            Path full = Files.createDirectory(dir.resolve("full"));
            Path inside = Files.writeString(full.resolve("inside"), "z");
            assertThat(FolderDeletion.removeIfEmpty(full)).isEqualTo(FolderDeletion.Outcome.NOT_EMPTY);
            assertThatThrownBy(() -> FolderDeletion.remove(full)).isInstanceOf(DirectoryNotEmptyException.class);
            assertThat(Files.readString(inside)).as(dir.toString()).isEqualTo("z");
        }
    }

    @Test
    void aMissingFolderIsAbsent() {
        for (Path dir : places()) {
            assertThat(catching(() -> FolderDeletion.removeIfEmpty(dir.resolve("missing")))).isEqualTo(FolderDeletion.Outcome.ABSENT);
            assertThatThrownBy(() -> FolderDeletion.remove(dir.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
        }
    }

    /**
     * A sync client's file (or a link) where a folder was: rmdir(2) refuses it and it is kept, where
     * NIO's delete would unlink it (the default file system on Linux; elsewhere NIO's delete, as before).
     */
    @Test
    void aFileOrLinkAtThePathIsRefusedAndKept() throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).startsWith("linux"));
        Path file = Files.writeString(tmp.resolve("file"), "data");
        Path target = Files.createDirectory(tmp.resolve("target"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
        for (Path p : List.of(file, link)) {
            assertThatThrownBy(() -> FolderDeletion.removeIfEmpty(p)).as(p.toString()).isInstanceOf(NotDirectoryException.class);
            assertThatThrownBy(() -> FolderDeletion.remove(p)).as(p.toString()).isInstanceOf(NotDirectoryException.class);
            assertThat(Files.exists(p, LinkOption.NOFOLLOW_LINKS)).as(p.toString()).isTrue();
        }
        assertThat(Files.readString(file)).isEqualTo("data");
        assertThat(Files.isDirectory(target)).isTrue();
    }

    private interface Call {
        FolderDeletion.Outcome run() throws IOException;
    }

    private static FolderDeletion.Outcome catching(Call c) {
        try {
            return c.run();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A file that a sync client puts at the path while the removal runs is never deleted: before
     * session 40 a failed rmdir (ENOENT) was followed by NIO's delete "to say why", which unlinked a
     * file that had arrived in between.
     */
    @Test
    void aFileArrivingDuringARemovalIsKept() throws Exception {
        int arrivedFirst = 0;
        int arrivedAfter = 0;
        for (int round = 0; round < 3000; round++) {
            Path p = tmp.resolve("r" + round);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            // Spread over the orders of magnitude from 100 ns to 1 ms: the window lies somewhere between.
            long delayNanos = (long) (100 * Math.pow(10_000, java.util.concurrent.ThreadLocalRandom.current().nextDouble()));
            Thread syncClient = new Thread(() -> {
                try {
                    go.await();
                    long until = System.nanoTime() + delayNanos;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    Files.writeString(p, "arrived");
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            syncClient.start();
            go.countDown();
            try {
                FolderDeletion.remove(p);
            } catch (NotDirectoryException fileFirst) {
                arrivedFirst++;
            } catch (NoSuchFileException nothingYet) {
                arrivedAfter++;
            } finally {
                syncClient.join();
            }
            assertThat(p).as("round %d", round).hasContent("arrived");
        }
        assertThat(arrivedFirst).as("rounds where rmdir met the file").isPositive();
        assertThat(arrivedAfter).as("rounds where rmdir found nothing").isPositive();
    }
}
