package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.names.DamagedEntryException;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vault's folder streams: a type-checked delete looks its entry up once, so a sync client that
 * swaps a folder's ciphertext entry for a file's while the delete runs never has that file deleted
 * (a type check and then a plain delete, two lookups, lost it: session 39's review); relative
 * operations refuse once the folder moved, and never name the folder itself; the listing is read
 * when the iteration starts, at the cost a listing had before streams were secure.
 */
class VaultFolderStreamTest {
    private static final int ROUNDS = 400;

    @TempDir
    Path tmp;

    @Test
    void aFileSwappedInForTheFolderIsNeverDeleted() throws Exception {
        Path vault = tmp.resolve("v");
        Path aside = Files.createDirectory(tmp.resolve("aside"));
        int swappedBeforeTheDelete = 0;
        int deletedBeforeTheSwap = 0;
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path x = fs.getPath("/x");
            Files.writeString(x, "precious");
            Path entry = onlyEntry(vault);
            Path savedFile = Files.copy(entry, aside.resolve("file.c9r"));
            Files.delete(x);
            for (int round = 0; round < ROUNDS; round++) {
                Files.createDirectory(x);
                assertThat(Files.isDirectory(entry)).isTrue();
                Path folderAside = aside.resolve("folder" + round);
                CountDownLatch go = new CountDownLatch(1);
                long delayNanos = logUniformNanos(1_000, 5_000_000); // some rounds swap at once, some after the delete
                boolean[] swapped = {false};
                Thread syncClient = new Thread(() -> {
                    try {
                        go.await();
                        long until = System.nanoTime() + delayNanos;
                        while (System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                        Files.move(entry, folderAside); // the folder's entry goes...
                        Files.copy(savedFile, entry); // ...and a file's takes its name
                        swapped[0] = true;
                    } catch (NoSuchFileException deletedFirst) {
                        // the delete was faster: nothing to swap
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                syncClient.start();
                boolean deleted;
                try (SecureDirectoryStream<Path> root = secure(Files.newDirectoryStream(fs.getPath("/")))) {
                    go.countDown();
                    root.deleteDirectory(fs.getPath("x"));
                    deleted = true;
                } catch (FileSystemException refused) {
                    deleted = false;
                } finally {
                    syncClient.join();
                }
                if (swapped[0]) {
                    assertThat(Files.isRegularFile(entry)).as("round %d: the file that took the folder's name is kept", round).isTrue();
                    assertThat(Files.readString(x)).as("round %d: the file that took the folder's name", round).isEqualTo("precious");
                    if (!deleted) {
                        swappedBeforeTheDelete++;
                    }
                    Files.delete(x);
                } else {
                    assertThat(deleted).as("round %d: nothing swapped, the folder is deleted", round).isTrue();
                    deletedBeforeTheSwap++;
                }
            }
        }
        assertThat(swappedBeforeTheDelete).as("rounds where the file was there first").isPositive();
        assertThat(deletedBeforeTheSwap).as("rounds where the delete was first").isPositive();
    }

    @Test
    void relativeOperationsRefuseOnceTheFolderMoved() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path a = Files.createDirectory(fs.getPath("/a"));
            Files.writeString(a.resolve("f"), "f");
            Files.createDirectory(fs.getPath("/b"));
            Files.writeString(fs.getPath("/b/f"), "b's");
            try (SecureDirectoryStream<Path> folder = secure(Files.newDirectoryStream(a))) {
                Files.move(a, fs.getPath("/moved"));
                Files.move(fs.getPath("/b"), a); // another folder now has the old path
                Path f = fs.getPath("f");
                assertThatThrownBy(() -> folder.deleteFile(f)).isInstanceOf(NoSuchFileException.class)
                        .hasMessageContaining("moved or replaced");
                assertThatThrownBy(() -> folder.getFileAttributeView(f, BasicFileAttributeView.class).readAttributes())
                        .isInstanceOf(NoSuchFileException.class);
                assertThatThrownBy(() -> folder.getFileAttributeView(BasicFileAttributeView.class).readAttributes())
                        .isInstanceOf(NoSuchFileException.class);
                folder.deleteFile(fs.getPath("/moved/f")); // an absolute path ignores the folder
                List<String> contents = new java.util.ArrayList<>();
                for (Path p : folder) {
                    contents.add(Files.readString(p));
                }
                assertThat(contents).as("the listing is of the folder the path names when it is read").containsExactly("b's");
            }
            assertThat(Files.readString(fs.getPath("/a/f"))).isEqualTo("b's");
        }
    }

    @Test
    void aListingThatFailsComesFromTheIteration() throws IOException {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = CofferFileSystems.create(vault, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            java.util.Set<Path> before = TestVaults.storageFolders(vault);
            Path d = Files.createDirectory(fs.getPath("/d"));
            Files.writeString(d.resolve("inside"), "x");
            java.util.Set<Path> made = TestVaults.storageFolders(vault);
            made.removeAll(before);
            assertThat(made).hasSize(1);
            Path storage = made.iterator().next();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(d)) {
                // A stream opened for its relative operations reads no listing: the storage can go meanwhile.
                try (Stream<Path> s = Files.list(storage)) {
                    for (Path p : s.toList()) {
                        Files.delete(p);
                    }
                }
                Files.delete(storage);
                assertThatThrownBy(() -> stream.iterator().hasNext()).isInstanceOf(DirectoryIteratorException.class)
                        .hasCauseInstanceOf(DamagedEntryException.class);
            }
            assertThatThrownBy(() -> Files.newDirectoryStream(fs.getPath("/missing"))).isInstanceOf(NoSuchFileException.class);
            Files.writeString(fs.getPath("/file"), "f");
            assertThatThrownBy(() -> Files.newDirectoryStream(fs.getPath("/file"))).isInstanceOf(NotDirectoryException.class);
        }
    }

    /** Object's contract for the attribute views a stream hands out (they wrap the provider's). */
    @Test
    void itsAttributeViewsEqualThemselves() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path d = Files.createDirectory(fs.getPath("/d"));
            Files.writeString(d.resolve("f"), "f");
            try (SecureDirectoryStream<Path> s = secure(Files.newDirectoryStream(d))) {
                BasicFileAttributeView relative = s.getFileAttributeView(fs.getPath("f"), BasicFileAttributeView.class);
                BasicFileAttributeView own = s.getFileAttributeView(BasicFileAttributeView.class);
                assertThat(relative).isEqualTo(relative).isNotEqualTo(own).hasSameHashCodeAs(relative);
                assertThat(own.equals(own)).isTrue();
                assertThat(relative.name()).isEqualTo("basic");
                assertThat(relative.toString()).isNotBlank();
            }
        }
    }

    /** unlinkat(dfd, ".", AT_REMOVEDIR) is EINVAL, an empty name ENOENT: never the stream's own folder. */
    @Test
    void theFolderItselfIsNoEntryOfIt() throws IOException {
        try (CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST)) {
            Path e = Files.createDirectories(fs.getPath("/e/inner"));
            try (SecureDirectoryStream<Path> s = secure(Files.newDirectoryStream(e))) {
                for (String self : List.of(".", "", "..", "../inner/..")) {
                    assertThatThrownBy(() -> s.deleteDirectory(fs.getPath(self))).as("'%s'", self).isInstanceOf(FileSystemException.class);
                    assertThatThrownBy(() -> s.move(fs.getPath(self), s, fs.getPath("x"))).as("'%s'", self).isInstanceOf(FileSystemException.class);
                }
                assertThatThrownBy(() -> s.deleteDirectory(fs.getPath(""))).isInstanceOf(NoSuchFileException.class);
            }
            assertThat(Files.isDirectory(e)).isTrue();
            assertThat(Files.isDirectory(e.getParent())).isTrue();
        }
    }

    /**
     * What a listing costs on the ciphertext side: as before the streams were secure (7 stats, 2 opens:
     * the folder's lookup and its {@code dir.c9r} read once), cold or once the folder cache's trust
     * in the folder has passed; the stream's open reads nothing of its own (review of session 40).
     */
    @Test
    void aListingCostsWhatItDidBefore() throws Exception {
        RecordingFileSystem rec = new RecordingFileSystem();
        try (CofferFileSystem fs = CofferFileSystems.create(rec.wrap(tmp.resolve("vault")), "test passphrase".toCharArray(),
                VaultOnTempDirContractTest.FAST)) {
            Files.createDirectories(fs.getPath("/d/sub"));
            for (int i = 0; i < 3; i++) {
                Files.writeString(fs.getPath("/d/f" + i), "content " + i);
            }
            fs.mapper.clearCaches();
            assertThat(listingCost(fs, rec)).as("cold").isEqualTo("entries=4 statted=7 opened=2 listed=2");
            Thread.sleep(1200); // past the folder cache's trust (FolderCache.TRUST_NANOS)
            assertThat(listingCost(fs, rec)).as("after the cache's trust").isEqualTo("entries=4 statted=7 opened=2 listed=2");
            rec.reset();
            try (DirectoryStream<Path> opened = Files.newDirectoryStream(fs.getPath("/d"))) {
                assertThat(opened).isInstanceOf(SecureDirectoryStream.class);
                assertThat(rec.opened).as("opening a stream reads nothing").isEmpty();
                assertThat(rec.listed).as("opening a stream lists nothing").isEmpty();
            }
        }
    }

    private static String listingCost(CofferFileSystem fs, RecordingFileSystem rec) throws IOException {
        rec.reset();
        int n = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(fs.getPath("/d"))) {
            for (Path ignored : ds) {
                n++;
            }
        }
        return "entries=" + n + " statted=" + rec.statted.size() + " opened=" + rec.opened.size() + " listed=" + rec.listed.size();
    }

    /** A delay spread evenly over the orders of magnitude from {@code min} to {@code max}: the race window lies somewhere between. */
    static long logUniformNanos(long min, long max) {
        double f = ThreadLocalRandom.current().nextDouble();
        return (long) (min * Math.pow((double) max / min, f));
    }

    @SuppressWarnings("unchecked")
    private static SecureDirectoryStream<Path> secure(DirectoryStream<Path> ds) {
        assertThat(ds).isInstanceOf(SecureDirectoryStream.class);
        return (SecureDirectoryStream<Path>) ds;
    }

    /** The root folder's only ciphertext entry. */
    private static Path onlyEntry(Path vault) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"), 3)) {
            List<Path> entries = s.filter(p -> p.getFileName().toString().endsWith(".c9r"))
                    .filter(p -> !p.getFileName().toString().equals("dirid.c9r")).toList();
            assertThat(entries).hasSize(1);
            return entries.get(0);
        }
    }
}
