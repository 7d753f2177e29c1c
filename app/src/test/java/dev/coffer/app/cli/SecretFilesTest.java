package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Passphrase files: the first line without its break, UTF-8 only, must exist; a named pipe is read once. */
class SecretFilesTest {
    @TempDir
    Path tmp;
    private final ByteArrayOutputStream warningBytes = new ByteArrayOutputStream();
    private final PrintStream warnings = new PrintStream(warningBytes, true, StandardCharsets.UTF_8);

    @ParameterizedTest
    @ValueSource(strings = {"pässword 🔐", "pässword 🔐\n", "pässword 🔐\r\n", "pässword 🔐\rnext", "\uFEFFpässword 🔐\nnext\n"})
    void firstLineWithoutLineBreak(String content) throws Exception {
        Path f = Cli.file(tmp, "p", content);
        assertThat(new String(SecretFiles.firstLine(f, warnings))).isEqualTo("pässword 🔐");
    }

    @Test
    void aWordsFileLosesItsByteOrderMark() throws Exception {
        // Notepad's BOM is no whitespace: it glued itself to the first word, "not in the word list".
        Path f = Cli.file(tmp, "w", "\uFEFFabandon ability\r\n");
        assertThat(new String(SecretFiles.whole(f, warnings))).isEqualTo("abandon ability\r\n");
    }

    @Test
    void everyBufferTheBytesWereReadIntoIsWiped() throws Exception {
        List<byte[]> readInto = new ArrayList<>();
        InputStream in = new ByteArrayInputStream("secret words\nmore".getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                readInto.add(b);
                return super.read(b, off, Math.min(len, 5)); // a few bytes a time, as a pipe gives them
            }
        };
        for (boolean firstLine : new boolean[] {true, false}) {
            in.reset();
            byte[] bytes = SecretFiles.upTo(in, firstLine);
            assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(firstLine ? "secret words" : "secret words\nmore");
            assertThat(readInto).isNotEmpty().allSatisfy(b -> assertThat(b).containsOnly(0));
            readInto.clear();
        }
    }

    @Test
    void spacesAreKept() throws Exception {
        assertThat(new String(SecretFiles.firstLine(Cli.file(tmp, "p", "  two spaces  \n"), warnings))).isEqualTo("  two spaces  ");
    }

    @Test
    void notUtf8IsRefused() throws IOException {
        Path f = Files.write(tmp.resolve("p"), new byte[] {'a', (byte) 0xff, 'b'});
        assertThatThrownBy(() -> SecretFiles.firstLine(f, warnings)).isInstanceOf(CliException.class).hasMessageContaining("not UTF-8");
    }

    @Test
    void aMissingFileOrAFolderIsRefused() {
        assertThatThrownBy(() -> SecretFiles.firstLine(tmp.resolve("none"), warnings)).isInstanceOf(CliException.class);
        assertThatThrownBy(() -> SecretFiles.firstLine(tmp, warnings)).isInstanceOf(CliException.class);
    }

    @Test
    void aHugeFileIsRefused() throws IOException {
        Path f = Files.write(tmp.resolve("p"), new byte[SecretFiles.MAX_BYTES + 1]);
        assertThatThrownBy(() -> SecretFiles.firstLine(f, warnings)).isInstanceOf(CliException.class).hasMessageContaining("larger");
    }

    @Test
    void aNamedPipeGivesItsFirstLineWithoutWaitingForTheWriterToClose() throws Exception {
        Path fifo = fifo("pass.fifo");
        // The writer keeps its end open after the line, as a slow script may.
        PipeWriter writer = new PipeWriter(fifo, "pässword 🔐\r\nnext line".getBytes(StandardCharsets.UTF_8));
        try {
            char[] line = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> SecretFiles.firstLine(fifo, warnings));
            assertThat(new String(line)).isEqualTo("pässword 🔐");
            assertThat(warningBytes.size()).as("no mode warning for a pipe").isZero();
        } finally {
            writer.close();
        }
    }

    @Test
    void aNamedPipeWithoutALineBreakGivesAllItCarries() throws Exception {
        Path fifo = fifo("pass.fifo");
        PipeWriter writer = new PipeWriter(fifo, "secret words".getBytes(StandardCharsets.UTF_8));
        writer.closeWhenWritten();
        try {
            char[] line = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> SecretFiles.firstLine(fifo, warnings));
            assertThat(new String(line)).isEqualTo("secret words");
        } finally {
            writer.close();
        }
    }

    @Test
    void aNamedPipeWithoutALineBreakInItsFirst64KiBIsRefused() throws Exception {
        Path fifo = fifo("pass.fifo");
        PipeWriter writer = new PipeWriter(fifo, new byte[SecretFiles.MAX_BYTES + 10]);
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> SecretFiles.firstLine(fifo, warnings))
                    .isInstanceOf(CliException.class).hasMessageContaining("larger"));
        } finally {
            writer.close();
        }
    }

    @Test
    void aDeviceIsRefused() {
        assertThatThrownBy(() -> SecretFiles.firstLine(Path.of("/dev/null"), warnings)).isInstanceOf(CliException.class)
                .hasMessageContaining("not a file or a pipe");
    }

    private Path fifo(String name) throws IOException, InterruptedException {
        Path fifo = tmp.resolve(name);
        // a prerequisite, not a reason to skip: coreutils' mkfifo is on every machine the tests run on
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).as("mkfifo " + fifo).isZero();
        return fifo;
    }

    /**
     * Writes bytes into a named pipe from a daemon thread and keeps its end open until closed (or
     * {@link #closeWhenWritten}). If nobody opened the pipe to read, {@link #close} does, so the
     * writer never stays blocked.
     */
    private static final class PipeWriter {
        private final Path fifo;
        private final CountDownLatch release = new CountDownLatch(1);
        private final Thread thread;

        PipeWriter(Path fifo, byte[] content) {
            this.fifo = fifo;
            thread = new Thread(() -> {
                try (OutputStream out = Files.newOutputStream(fifo)) {
                    out.write(content);
                    out.flush();
                    release.await(20, TimeUnit.SECONDS);
                } catch (IOException | InterruptedException e) {
                    // the reader closed its end early: nothing more to write
                }
            }, "pipe-writer");
            thread.setDaemon(true);
            thread.start();
        }

        void closeWhenWritten() {
            release.countDown();
        }

        void close() throws IOException, InterruptedException {
            release.countDown();
            thread.join(2000);
            if (thread.isAlive()) {
                try (var in = Files.newInputStream(fifo)) {
                    in.readAllBytes();
                }
                thread.join(2000);
            }
        }
    }
}
