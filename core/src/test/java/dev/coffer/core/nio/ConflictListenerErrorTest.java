package dev.coffer.core.nio;

import static dev.coffer.core.nio.OrphanFixtures.names;
import static dev.coffer.core.nio.OrphanFixtures.payload;
import static dev.coffer.core.nio.OrphanFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener of conflict copies that throws an Error (not an Exception: an AssertionError, a
 * NoClassDefFoundError, a StackOverflowError) changes nothing: a lock still copies every orphan,
 * and a program's close still succeeds (session 38's review: the lock skipped the other orphans,
 * whose writes were lost, and the Error reached the program's close).
 */
class ConflictListenerErrorTest {
    private static final String PASS = "pass phrase";
    @TempDir
    Path tmp;

    /** Two orphans open when the vault locks; the listener fails with an Error at the first one. */
    @Test
    void anErrorInAListenerAtLockStillCopiesEveryOrphan() throws Exception {
        Path vault = tmp.resolve("v");
        CofferFileSystem fs = CofferFileSystems.create(vault, PASS.toCharArray(), VaultOnTempDirContractTest.FAST);
        List<ConflictCopy> told = new CopyOnWriteArrayList<>();
        fs.onConflictCopies(c -> {
            told.add(c);
            throw new NoClassDefFoundError("javafx/application/Platform");
        });
        for (String name : List.of("/a.txt", "/b.txt")) {
            Path p = fs.getPath(name);
            Files.writeString(p, "");
            FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE); // left open: the program's
            write(ch, "written to " + name);
            Files.delete(payload(fs, name)); // another device deleted it
        }
        Throwable thrown = null;
        try {
            fs.close(); // locked with both still open
        } catch (Throwable t) {
            thrown = t;
        }
        fs = CofferFileSystems.open(vault, PASS.toCharArray(), false);
        try {
            assertThat(thrown).as("the lock went well").isNull();
            assertThat(names(fs, "/")).containsExactly("a.txt (Conflict 1)", "b.txt (Conflict 1)");
        } finally {
            fs.close();
        }
    }

    /** The program's close (on a FUSE worker): a listener's Error does not reach it. */
    @Test
    void anErrorInAListenerAtALastCloseLeavesTheProgramsCloseAlone() throws Exception {
        CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), PASS.toCharArray(), VaultOnTempDirContractTest.FAST);
        try {
            fs.onConflictCopies(c -> {
                throw new StackOverflowError();
            });
            Path p = fs.getPath("/a.txt");
            Files.writeString(p, "");
            FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE);
            write(ch, "kept");
            Files.delete(payload(fs, "/a.txt"));
            Throwable thrown = null;
            try {
                ch.close();
            } catch (Throwable t) {
                thrown = t;
            }
            assertThat(thrown).as("the close itself went well").isNull();
        } finally {
            fs.close();
        }
    }
}
