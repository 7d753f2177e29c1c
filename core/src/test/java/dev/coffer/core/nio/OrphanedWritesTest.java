package dev.coffer.core.nio;

import static dev.coffer.core.nio.OrphanFixtures.lockOf;
import static dev.coffer.core.nio.OrphanFixtures.names;
import static dev.coffer.core.nio.OrphanFixtures.otherDevicesVersion;
import static dev.coffer.core.nio.OrphanFixtures.payload;
import static dev.coffer.core.nio.OrphanFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync client replaces or deletes the ciphertext of a file a program still writes: what the program
 * wrote would be lost with the orphaned inode at its last close, so that close keeps it as
 * {@code <N> (Conflict k)}. Never after a delete or a move over the file through the file system
 * itself (POSIX: those writes are rightly gone), never for a file nobody changed, never for the
 * ordinary single-device flows.
 */
class OrphanedWritesTest {
    private static final String PASS = "pass phrase";
    @TempDir
    Path tmp;
    private Path vault;
    private CofferFileSystem fs;
    private Path file;

    @BeforeEach
    void vault() throws IOException {
        vault = tmp.resolve("v");
        fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST);
        file = fs.getPath("/notes.txt");
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void aFileReplacedUnderneathKeepsTheProgramsBytesAsAConflictCopy() throws IOException {
        Files.writeString(file, "before");
        Path synced = otherDevicesVersion(fs, tmp, "the sync client's version");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            write(ch, "first part, ");
            Files.move(synced, payload(fs, "/notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            write(ch, "second part");
        }
        assertThat(Files.readString(file)).as("the name keeps the sync client's version").isEqualTo("the sync client's version");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("first part, second part");
        assertThat(names(fs, "/")).containsExactly("notes.txt", "notes.txt (Conflict 1)");
    }

    @Test
    void aFileDeletedUnderneathKeepsTheProgramsBytesAsAConflictCopy() throws IOException {
        Files.writeString(file, "old ");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            Files.delete(payload(fs, "/notes.txt"));
            write(ch, "and new");
        }
        assertThat(names(fs, "/")).containsExactly("notes.txt (Conflict 1)");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("old and new");
    }

    @Test
    void aLongNamedFileReplacedUnderneathIsKeptToo() throws IOException {
        String longName = "l".repeat(200) + ".txt";
        Path longFile = fs.getPath("/" + longName);
        Files.writeString(longFile, "before");
        Path ciphertext = payload(fs, "/" + longName);
        assertThat(ciphertext.getFileName().toString()).as("stored under a shortened name").isEqualTo("contents.c9r");
        Path synced = otherDevicesVersion(fs, tmp, "synced");
        try (FileChannel ch = FileChannel.open(longFile, StandardOpenOption.WRITE)) {
            write(ch, "program");
            Files.move(synced, ciphertext, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            write(ch, "'s bytes");
        }
        assertThat(Files.readString(longFile)).isEqualTo("synced");
        assertThat(Files.readString(fs.getPath("/" + longName + " (Conflict 1)"))).isEqualTo("program's bytes");
    }

    @Test
    void aFileDeletedThroughTheFileSystemWhileOpenIsNotKept() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            write(ch, "scratch ");
            Files.delete(file); // the unlinked temporary file pattern
            write(ch, "more scratch");
            assertThat(read(ch)).isEqualTo("scratch more scratch");
        }
        assertThat(names(fs, "/")).isEmpty();
    }

    @Test
    void renamesAndMovesOverThroughTheFileSystemKeepNoCopy() throws IOException {
        Files.writeString(file, "");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            write(ch, "renamed ");
            Files.move(file, fs.getPath("/renamed.txt"));
            write(ch, "while open");
        }
        assertThat(Files.readString(fs.getPath("/renamed.txt"))).isEqualTo("renamed while open");

        Files.writeString(fs.getPath("/target.txt"), "target");
        try (FileChannel ch = FileChannel.open(fs.getPath("/renamed.txt"), StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            write(ch, ", moved over another");
            Files.move(fs.getPath("/renamed.txt"), fs.getPath("/target.txt"), StandardCopyOption.REPLACE_EXISTING);
            write(ch, " file");
        }
        assertThat(Files.readString(fs.getPath("/target.txt"))).isEqualTo("renamed while open, moved over another file");

        // The save pattern: a temporary file renamed over the original the program still has open.
        try (FileChannel original = FileChannel.open(fs.getPath("/target.txt"), StandardOpenOption.WRITE)) {
            write(original, "edited");
            Files.writeString(fs.getPath("/target.txt.tmp"), "saved");
            Files.move(fs.getPath("/target.txt.tmp"), fs.getPath("/target.txt"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            write(original, " after the save");
        }
        assertThat(Files.readString(fs.getPath("/target.txt"))).isEqualTo("saved");

        // Word's save: the new version written to ~WRD, the open original renamed to ~WRL, ~WRD renamed to
        // the name, ~WRL deleted; the original's handle closes last.
        Files.writeString(fs.getPath("/doc.docx"), "");
        try (FileChannel original = FileChannel.open(fs.getPath("/doc.docx"), StandardOpenOption.WRITE)) {
            write(original, "draft");
            Files.writeString(fs.getPath("/~WRD0000.tmp"), "saved document");
            Files.move(fs.getPath("/doc.docx"), fs.getPath("/~WRL0001.tmp"));
            Files.move(fs.getPath("/~WRD0000.tmp"), fs.getPath("/doc.docx"));
            write(original, " edited on");
            Files.delete(fs.getPath("/~WRL0001.tmp"));
            write(original, " and on");
        }
        assertThat(Files.readString(fs.getPath("/doc.docx"))).isEqualTo("saved document");

        String longName = "m".repeat(200);
        Files.writeString(fs.getPath("/" + longName), "");
        try (FileChannel ch = FileChannel.open(fs.getPath("/" + longName), StandardOpenOption.WRITE)) {
            write(ch, "long ");
            Files.move(fs.getPath("/" + longName), fs.getPath("/" + longName + "2"));
            write(ch, "to long");
        }
        assertThat(Files.readString(fs.getPath("/" + longName + "2"))).isEqualTo("long to long");

        Files.createDirectory(fs.getPath("/dir"));
        try (FileChannel ch = FileChannel.open(fs.getPath("/dir/inside.txt"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            write(ch, "in a folder ");
            Files.move(fs.getPath("/dir"), fs.getPath("/moved"));
            write(ch, "that moved");
        }
        assertThat(Files.readString(fs.getPath("/moved/inside.txt"))).isEqualTo("in a folder that moved");
        assertThat(names(fs, "/")).containsExactly("doc.docx", longName + "2", "moved", "target.txt");
        assertThat(names(fs, "/moved")).containsExactly("inside.txt");
    }

    @Test
    void aFileNobodyChangedIsNotKept() throws IOException {
        Files.writeString(file, "mine");
        try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ);
                FileChannel idle = FileChannel.open(file, StandardOpenOption.WRITE)) {
            assertThat(read(reader)).isEqualTo("mine");
            assertThat(idle.size()).as("a writer that never wrote").isEqualTo(4);
            Files.move(otherDevicesVersion(fs, tmp, "theirs"), payload(fs, "/notes.txt"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        }
        assertThat(names(fs, "/")).containsExactly("notes.txt");
        assertThat(Files.readString(file)).isEqualTo("theirs");
    }

    @Test
    void aTakenConflictNameIsSkipped() throws IOException {
        Files.writeString(file, "");
        Files.writeString(fs.getPath("/notes.txt (Conflict 1)"), "an earlier copy");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            write(ch, "this time's ");
            Files.delete(payload(fs, "/notes.txt"));
            write(ch, "bytes");
        }
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("an earlier copy");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 2)"))).isEqualTo("this time's bytes");
        assertThat(names(fs, "/")).containsExactly("notes.txt (Conflict 1)", "notes.txt (Conflict 2)");
    }

    @Test
    void theCopyOfAFileWhoseFolderWasDeletedUnderneathLandsInTheRoot() throws IOException {
        Files.createDirectory(fs.getPath("/dir"));
        Path inside = fs.getPath("/dir/a.txt");
        Files.writeString(inside, "");
        Path storage = fs.resolver.directoryOf(fs.resolver.locate(fs.getPath("/dir"))).storage();
        try (FileChannel ch = FileChannel.open(inside, StandardOpenOption.WRITE)) {
            write(ch, "kept ");
            deleteTree(storage); // another device deleted the folder with the file in it
            write(ch, "in the root");
        }
        assertThat(Files.readString(fs.getPath("/a.txt (Conflict 1)"))).isEqualTo("kept in the root");
    }

    @Test
    void closingTheFileSystemKeepsAnOrphanThatIsStillOpen() throws IOException {
        Files.writeString(file, "x");
        Path synced = otherDevicesVersion(fs, tmp, "synced");
        FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        write(ch, "unsaved ");
        Files.move(synced, payload(fs, "/notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        write(ch, "work");
        fs.close(); // locked with the program's channel still open
        assertThat(ch.isOpen()).isFalse();

        fs = CofferFileSystems.open(vault, PASS.toCharArray(), false);
        assertThat(Files.readString(fs.getPath("/notes.txt"))).isEqualTo("synced");
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("unsaved work");
    }

    /**
     * The program closes its last channel while an open of the name is checking the orphan's header
     * (pinned, waiting for a long write): the pin is the orphan's last reference, and the open that
     * drops it, on finding the name replaced, keeps the orphan's content.
     */
    @Test
    void anOrphanWhoseLastReferenceIsAJoinsPinIsKeptToo() throws Exception {
        Files.writeString(file, "");
        Path synced = otherDevicesVersion(fs, tmp, "synced");
        FileChannel reader = FileChannel.open(file, StandardOpenOption.READ);
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE)) {
            write(writer, "written");
        }
        ReentrantReadWriteLock lock = lockOf(fs.openFiles.get(payload(fs, "/notes.txt")));
        Files.move(synced, payload(fs, "/notes.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> join;
            lock.writeLock().lock(); // stands for a long write: the join's header check waits for it
            try {
                join = pool.submit(() -> {
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                        return read(ch);
                    }
                });
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!lock.hasQueuedThreads() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertThat(lock.hasQueuedThreads()).as("the join waits, pinned").isTrue();
                reader.close(); // the program's last channel
            } finally {
                lock.writeLock().unlock();
            }
            assertThat(join.get(5, TimeUnit.SECONDS)).as("the open gets the synced file").isEqualTo("synced");
        } finally {
            pool.shutdownNow();
        }
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("written");
    }

    @Test
    void aRescueIsLoggedWithoutTheNameAndOneThatFailsLetsTheCloseGoOn() throws IOException {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(OpenFiles.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
                new ch.qos.logback.core.read.ListAppender<>();
        captured.start();
        logger.addAppender(captured);
        try {
            Files.writeString(file, "");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(ch, "kept");
                Files.delete(payload(fs, "/notes.txt"));
            }
            fs.openFiles.rescueWith(orphan -> {
                throw new IOException(orphan.cleartextPath() + " (Conflict 2): No space left on device");
            });
            FileChannel failing = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            write(failing, "lost on a full disk");
            Files.delete(payload(fs, "/notes.txt"));
            failing.close(); // no exception: the close itself went well
            assertThat(failing.isOpen()).isFalse();
        } finally {
            logger.detachAppender(captured);
        }
        assertThat(captured.list).extracting(e -> e.getLevel().toString()).containsExactly("WARN", "WARN");
        assertThat(captured.list.get(0).getFormattedMessage()).contains("kept as a conflict copy");
        assertThat(captured.list.get(1).getFormattedMessage()).contains("could not be kept").contains("IOException");
        assertThat(captured.list).allSatisfy(e -> assertThat(e.getFormattedMessage()).doesNotContain("notes"));
        assertThat(captured.list).as("nobody listens: nothing else will tell of it").allSatisfy(e -> assertThat(
                e.getMarkerList() == null ? List.of() : e.getMarkerList()).isEmpty());
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("kept");
    }

    @Test
    void aRescueToldToAListenerIsLoggedMarkedSo() throws IOException {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(OpenFiles.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
                new ch.qos.logback.core.read.ListAppender<>();
        captured.start();
        logger.addAppender(captured);
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(told::add);
        try {
            Files.writeString(file, "");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                write(ch, "kept");
                Files.delete(payload(fs, "/notes.txt"));
            }
        } finally {
            logger.detachAppender(captured);
        }
        assertThat(told).containsExactly(ConflictCopy.kept("/notes.txt", "/notes.txt (Conflict 1)"));
        assertThat(captured.list).singleElement().satisfies(e -> {
            assertThat(e.getLevel().toString()).isEqualTo("WARN");
            assertThat(e.getMarkerList()).extracting(org.slf4j.Marker::getName).containsExactly(ConflictCopy.TOLD_BY_NAME);
        });
    }

    @Test
    void theOwnerIsToldWhereTheCopyOfAReplacedFileIs() throws IOException {
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(told::add);
        Files.createDirectory(fs.getPath("/docs"));
        Path report = fs.getPath("/docs/report.txt");
        Files.writeString(report, "before");
        Path synced = otherDevicesVersion(fs, tmp, "the other device's version");
        try (FileChannel ch = FileChannel.open(report, StandardOpenOption.WRITE)) {
            write(ch, "written here");
            Files.move(synced, payload(fs, "/docs/report.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            assertThat(told).as("not before the last close").isEmpty();
        }
        assertThat(told).containsExactly(ConflictCopy.kept("/docs/report.txt", "/docs/report.txt (Conflict 1)"));
        assertThat(Files.readString(fs.getPath("/docs/report.txt (Conflict 1)"))).isEqualTo("written here");
        assertThat(told.get(0).toString()).as("no name in what a log might print").doesNotContain("report");
    }

    @Test
    void theOwnerIsToldOfACopyInTheRootAndOfOneMadeWhenTheVaultLocks() throws IOException {
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(told::add);
        Files.createDirectory(fs.getPath("/dir"));
        Path inside = fs.getPath("/dir/a.txt");
        Files.writeString(inside, "");
        Path storage = fs.resolver.directoryOf(fs.resolver.locate(fs.getPath("/dir"))).storage();
        FileChannel ch = FileChannel.open(inside, StandardOpenOption.WRITE);
        write(ch, "kept in the root");
        deleteTree(storage); // another device deleted the folder with the file in it
        fs.close(); // locked with the program's channel still open
        assertThat(told).containsExactly(ConflictCopy.kept("/dir/a.txt", "/a.txt (Conflict 1)"));
        fs = CofferFileSystems.open(vault, PASS.toCharArray(), false);
        assertThat(Files.readString(fs.getPath("/a.txt (Conflict 1)"))).isEqualTo("kept in the root");
    }

    @Test
    void aListenerThatThrowsStopsNeitherTheCopyNorTheCloseNorTheOtherListeners() throws IOException {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                ConflictCopyListeners.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
                new ch.qos.logback.core.read.ListAppender<>();
        captured.start();
        logger.addAppender(captured);
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(c -> {
            throw new IllegalStateException("cannot show " + c.original());
        });
        fs.onConflictCopies(told::add);
        try {
            Files.writeString(file, "");
            FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE);
            write(ch, "kept all the same");
            Files.delete(payload(fs, "/notes.txt"));
            ch.close(); // no exception: the close itself went well
            assertThat(ch.isOpen()).isFalse();
        } finally {
            logger.detachAppender(captured);
        }
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("kept all the same");
        assertThat(told).containsExactly(ConflictCopy.kept("/notes.txt", "/notes.txt (Conflict 1)"));
        assertThat(captured.list).singleElement().satisfies(e -> assertThat(e.getFormattedMessage())
                .contains("IllegalStateException").doesNotContain("notes"));
    }

    @Test
    void aCopyThatCouldNotBeMadeIsToldAsNotKept() throws IOException {
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(told::add);
        fs.openFiles.rescueWith(orphan -> {
            throw new IOException("No space left on device");
        });
        FileChannel failing = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        write(failing, "lost on a full disk");
        Files.delete(payload(fs, "/notes.txt"));
        failing.close();
        assertThat(told).containsExactly(ConflictCopy.notKept("/notes.txt"));
    }

    /** A program closing on an interrupted thread (a shutdown): the copy is made, and the interrupt is kept. */
    @Test
    void anInterruptedClosingThreadStillMakesTheCopy() throws IOException {
        Files.writeString(file, "");
        FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE);
        write(ch, "closed while interrupted");
        Files.delete(payload(fs, "/notes.txt"));
        boolean stillInterrupted;
        Thread.currentThread().interrupt();
        try {
            ch.close();
        } finally {
            stillInterrupted = Thread.interrupted();
        }
        assertThat(stillInterrupted).isTrue();
        assertThat(Files.readString(fs.getPath("/notes.txt (Conflict 1)"))).isEqualTo("closed while interrupted");
    }






    private static String read(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1024);
        ch.read(buf, 0);
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
