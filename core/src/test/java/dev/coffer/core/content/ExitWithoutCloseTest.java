package dev.coffer.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.crypto.AesSiv;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A program that appends whole batches (written behind or queued, here slowly) and then exits without closing
 * the file, by returning from main or by System.exit: the JVM's exit waits for the write, so the
 * file holds everything the program wrote. A write that begins during the exit (after that wait)
 * is written before it returns. Runs the writer in a child JVM.
 *
 * <p>The eight children are started together before the first test (each writes its own file) and
 * each test waits for its own: their 500 ms write delays overlap instead of adding up, and they run
 * C1-compiled only, as a short program needs no C2.
 */
class ExitWithoutCloseTest {
    private static final int BATCH = 32 * SectorLayout.SECTOR;

    @TempDir
    static Path tmp;

    /** The running children, by main class and arguments. */
    private static final Map<String, Process> CHILDREN = new HashMap<>();

    @BeforeAll
    static void startEveryChild() throws IOException {
        for (String how : List.of("return", "exit")) {
            for (String path : List.of("behind", "queued")) {
                start(Writer.class, how, path);
            }
        }
        for (String when : List.of("after-hooks", "first-use")) {
            for (String path : List.of("behind", "queued")) {
                start(LateWriter.class, when, path);
            }
        }
    }

    /** Ends any child still running (only after a failed test: each test waits for its own). */
    @AfterAll
    static void endLeftoverChildren() {
        CHILDREN.values().forEach(Process::destroyForcibly);
    }

    @ParameterizedTest
    @CsvSource({"return, behind", "exit, behind", "return, queued", "exit, queued"})
    void theJvmExitWaitsForAWriteRunningBehind(String how, String path) throws Exception {
        check(Writer.class, how, path);
    }

    /**
     * A write that begins during the exit, in a shutdown hook of the program's own: after Coffer's
     * hooks have finished their wait (they ran while nothing was running), or in a program whose
     * first write behind comes only then (no Coffer hook could be added any more). Handed to a
     * daemon thread it would be acknowledged and never written; it must be written before it returns.
     */
    @ParameterizedTest
    @CsvSource({"after-hooks, behind", "after-hooks, queued", "first-use, behind", "first-use, queued"})
    void aWriteThatBeginsDuringTheExitIsWrittenBeforeItReturns(String when, String path) throws Exception {
        check(LateWriter.class, when, path);
    }

    /** Starts {@code main} in a child JVM on a new file of its own. */
    private static void start(Class<?> main, String arg1, String arg2) throws IOException {
        String name = name(main, arg1, arg2);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), main.getName(), file(name).toString(), arg1, arg2)
                .redirectErrorStream(true).start();
        CHILDREN.put(name, child);
    }

    private static String name(Class<?> main, String arg1, String arg2) {
        return main.getSimpleName() + "-" + arg1 + "-" + arg2;
    }

    private static Path file(String name) {
        return tmp.resolve(name + ".c9r");
    }

    /** Waits for the child of {@code main} with these arguments and checks that its file holds {@link #expected}. */
    private void check(Class<?> main, String arg1, String arg2) throws Exception {
        String name = name(main, arg1, arg2);
        Process child = CHILDREN.get(name);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("appended");
        try (OpenFile f = new OpenFile(FileChannel.open(file(name), StandardOpenOption.READ), keys(), "/f", false)) {
            ByteBuffer back = ByteBuffer.allocate((int) f.size());
            while (back.hasRemaining() && f.read(back, back.position()) >= 0) {
                // reads until full
            }
            assertThat(Arrays.equals(back.array(), expected())).isTrue();
        }
    }

    static ContentKeys keys() {
        return new ContentKeys(new FileHeaders(new AesSiv(new byte[64]), new SecureRandom()), true);
    }

    static byte[] expected() {
        byte[] b = new byte[3 * BATCH];
        new Random(42).nextBytes(b);
        return b;
    }

    /**
     * The child: writes one batch, then appends two more behind a 500 ms write delay (written behind
     * one after the other, or queued together), then leaves.
     */
    public static final class Writer {
        public static void main(String[] args) throws IOException {
            SpaceLimitedChannel ch = channel(args[0]);
            OpenFile f = open(ch, args[2]);
            byte[] data = expected();
            f.write(ByteBuffer.wrap(data, 0, BATCH), 0);
            ch.setWriteDelayMillis(500);
            f.write(ByteBuffer.wrap(data, BATCH, BATCH), BATCH);
            f.write(ByteBuffer.wrap(data, 2 * BATCH, BATCH), 2 * BATCH);
            System.out.println("appended");
            System.out.flush();
            if (args[1].equals("exit")) {
                System.exit(0);
            }
        }
    }

    /**
     * The child of {@link #aWriteThatBeginsDuringTheExitIsWrittenBeforeItReturns}: its own shutdown
     * hook writes behind a 500 ms write delay, enough for a daemon writer to be cut off by the halt.
     * "after-hooks": writes two batches (one written behind or queued, so that Coffer's hooks are
     * added) and waits for them before it returns; the hook waits until Coffer's hooks have ended and
     * then appends the third. "first-use": the hook opens the file and writes all three batches,
     * while no Coffer hook exists. Exits with 3 if the order is not as meant, 4 if a write failed.
     */
    public static final class LateWriter {
        public static void main(String[] args) throws IOException {
            String path = args[2];
            byte[] data = expected();
            if (args[1].equals("after-hooks")) {
                SpaceLimitedChannel ch = channel(args[0]);
                OpenFile f = open(ch, path);
                f.write(ByteBuffer.wrap(data, 0, BATCH), 0);
                f.write(ByteBuffer.wrap(data, BATCH, BATCH), BATCH);
                f.force(false); // the batch behind has landed: nothing runs when the exit begins
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    awaitCofferHooks(path.equals("queued") ? 2 : 1);
                    write(() -> {
                        ch.setWriteDelayMillis(500);
                        f.write(ByteBuffer.wrap(data, 2 * BATCH, BATCH), 2 * BATCH);
                    });
                }));
            } else {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> write(() -> {
                    requireOrder(ExitWaits.hooks().isEmpty(), "a Coffer hook was added before the exit");
                    SpaceLimitedChannel ch = channel(args[0]);
                    OpenFile f = open(ch, path);
                    f.write(ByteBuffer.wrap(data, 0, BATCH), 0);
                    ch.setWriteDelayMillis(500);
                    f.write(ByteBuffer.wrap(data, BATCH, BATCH), BATCH);
                    f.write(ByteBuffer.wrap(data, 2 * BATCH, BATCH), 2 * BATCH);
                })));
            }
        }

        /** Waits until Coffer's {@code count} hooks have started and ended (the JVM starts every hook). */
        private static void awaitCofferHooks(int count) {
            List<Thread> hooks = ExitWaits.hooks();
            requireOrder(hooks.size() == count, "expected " + count + " Coffer hooks, found " + hooks);
            for (Thread hook : hooks) {
                while (hook.getState() != Thread.State.TERMINATED) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
        }

        private static void requireOrder(boolean asMeant, String otherwise) {
            if (!asMeant) {
                System.out.println(otherwise);
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
        }

        /** Runs the hook's writes and says so; a failure halts with 4 (a hook cannot throw to anyone). */
        private static void write(OpenFile.IoAction writes) {
            try {
                writes.run();
            } catch (Throwable t) {
                t.printStackTrace(System.out);
                System.out.flush();
                Runtime.getRuntime().halt(4);
            }
            System.out.println("appended");
            System.out.flush();
        }
    }

    static SpaceLimitedChannel channel(String file) throws IOException {
        return new SpaceLimitedChannel(FileChannel.open(Paths.get(file), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE), Long.MAX_VALUE);
    }

    /** "queued": a file that queues streaming appends (its store has room); else one that writes them behind. */
    static OpenFile open(SpaceLimitedChannel ch, String path) throws IOException {
        OpenFile.FreeSpace roomy = () -> Long.MAX_VALUE / 2;
        return path.equals("queued") ? new OpenFile(ch, keys(), "/f", false, roomy) : new OpenFile(ch, keys(), "/f", false);
    }
}
