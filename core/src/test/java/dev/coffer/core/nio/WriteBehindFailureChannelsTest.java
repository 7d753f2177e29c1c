package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.coffer.core.content.EarlierWriteLostException;
import dev.coffer.core.testing.TmpfsMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append the vault wrote behind fails on a full disk (a real 8 MiB tmpfs under the vault). Every
 * channel that was open for writing when it failed hears of it once, at its own flush points, as an
 * exception of its own; whichever channel the vault's next change comes from.
 */
class WriteBehindFailureChannelsTest {
    @TempDir
    Path tmp;

    private final byte[] first = new byte[4096];
    private final byte[] batch = new byte[128 * 1024];

    /** A test on a vault in a real 8 MiB tmpfs filled up to 64 KiB ({@code ballast.bin}), with {@code /f.bin} to use. */
    @FunctionalInterface
    private interface AlmostFullVaultTest {
        void run(TmpfsMount small, CofferFileSystem fs, Path file) throws Exception;
    }

    private void onAlmostFullVault(AlmostFullVaultTest test) throws Exception {
        new Random(1).nextBytes(first);
        new Random(2).nextBytes(batch);
        try (TmpfsMount small = TmpfsMount.mount(tmp.resolve("small"), 8);
                CofferFileSystem fs = CofferFileSystems.create(small.dir().resolve("v"), "pass phrase".toCharArray(),
                        VaultOnTempDirContractTest.FAST)) {
            small.leaveFree("ballast.bin", 64 * 1024);
            test.run(small, fs, fs.getPath("/f.bin"));
        }
    }

    @Test
    void everyWriterOpenAtTheFailureReportsItOnceAtItsFlushPoints() throws Exception {
        onAlmostFullVault((small, fs, file) -> {
            IOException thrown = null;
            try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE);
                    FileChannel appender = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                    FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
                writer.write(ByteBuffer.wrap(first));
                assertThat(writer.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length); // runs behind, fails
                assertThat(reader.read(ByteBuffer.allocate(10), 0)).as("a reader waits, sees it undone, is not told").isEqualTo(10);
                assertThatThrownBy(() -> other.write(ByteBuffer.allocate(0), 0)).as("the first flush point: the other writer")
                        .hasMessageContaining("No space left on device");
                assertThat(other.write(ByteBuffer.allocate(0), 0)).as("once").isZero();
                assertThatThrownBy(() -> appender.write(ByteBuffer.allocate(0))).as("an appending writer's flush point")
                        .hasMessageContaining("No space left on device").hasCauseInstanceOf(IOException.class);
                assertThat(appender.write(ByteBuffer.allocate(0))).as("once").isZero();
                assertThatThrownBy(() -> writer.force(false)).as("the writer whose data it was")
                        .hasMessageContaining("No space left on device");
                writer.force(false); // once
                assertThat(Files.size(file)).isEqualTo(first.length);
                // all three closed here: nothing left to report, and no exception suppressed into itself
            } catch (IOException e) {
                thrown = e;
            }
            assertThat(thrown).isNull();

            Path second = fs.getPath("/g.bin");
            try (FileChannel writer = FileChannel.open(second, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    FileChannel other = FileChannel.open(second, StandardOpenOption.WRITE);
                    FileChannel reader = FileChannel.open(second, StandardOpenOption.READ)) {
                writer.write(ByteBuffer.wrap(first));
                writer.write(ByteBuffer.wrap(batch)); // behind again, fails again
                reader.read(ByteBuffer.allocate(10), 0); // waits for it: undone, kept for the writers
                assertThat(other.size()).isEqualTo(first.length);
            } catch (IOException e) {
                thrown = e; // both closes report it: two exceptions of their own, one suppressed into the other
            }
            assertThat(thrown).hasMessageContaining("No space left on device");
            assertThat(thrown.getSuppressed()).hasSize(1);
            assertThat(thrown.getSuppressed()[0]).isNotSameAs(thrown).hasMessageContaining("No space left on device");
            assertThat(Files.size(second)).isEqualTo(first.length);
        });
    }

    /**
     * The writer whose append was lost hears of it at its next write although another writer took
     * the failure first and the disk is still full (it would otherwise fail for its own reason, which
     * says nothing of the bytes it was told were written); its later writes fail for their own.
     */
    @Test
    void aWriterHearsOfItsLostAppendBeforeItsOwnWritesFail() throws Exception {
        onAlmostFullVault((small, fs, file) -> {
            FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE);
            writer.write(ByteBuffer.wrap(first));
            assertThat(writer.write(ByteBuffer.wrap(batch))).isEqualTo(batch.length); // runs behind, fails
            assertThatThrownBy(() -> other.write(ByteBuffer.allocate(0), 0)).as("the other writer takes it first")
                    .hasMessageContaining("No space left on device");
            small.fill("rest.bin");
            assertThatThrownBy(() -> writer.write(ByteBuffer.wrap(first), first.length)).as("the writer's next write")
                    .isInstanceOf(EarlierWriteLostException.class).hasMessageContaining("No space left on device");
            assertThatThrownBy(() -> writer.write(ByteBuffer.wrap(first), first.length)).as("then its own small write")
                    .hasMessageContaining("No space left on device").isNotInstanceOf(EarlierWriteLostException.class);
            writer.force(false); // told once
            other.close();
            writer.close();
            assertThat(Files.size(file)).isEqualTo(first.length);
        });
    }

    /**
     * A writer that closes while another channel keeps the file open (so the close releases nothing)
     * still waits for its append running behind and hears of its failure; the reader is not told.
     */
    @Test
    void aWriterClosingWhileTheFileStaysOpenHearsOfItsLostAppend() throws Exception {
        onAlmostFullVault((small, fs, file) -> {
            FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
                FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE);
                writer.write(ByteBuffer.wrap(first));
                assertThat(writer.write(ByteBuffer.wrap(batch), first.length)).isEqualTo(batch.length); // runs behind, fails
                assertThatThrownBy(writer::close).as("the writer, although the file stays open")
                        .hasMessageContaining("an earlier write of this file failed and was undone")
                        .hasMessageContaining("No space left on device");
                assertThat(writer.isOpen()).isFalse();
                assertThat(reader.size()).isEqualTo(first.length);
            }
        });
    }

    /**
     * Another writer's close took the failure of the writer's append first: the writer's next write
     * is refused with it, instead of going on past the range that was undone.
     */
    @Test
    void aWriterWhoseLossAnotherTookIsToldInsteadOfItsNextWrite() throws Exception {
        onAlmostFullVault((small, fs, file) -> {
            FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            writer.write(ByteBuffer.wrap(first));
            FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE);
            assertThat(writer.write(ByteBuffer.wrap(batch), first.length)).isEqualTo(batch.length); // runs behind, fails
            assertThatThrownBy(other::close).as("the other writer's close takes it first")
                    .hasMessageContaining("an earlier write of this file failed and was undone");
            Files.delete(small.dir().resolve("ballast.bin"));
            assertThatThrownBy(() -> writer.write(ByteBuffer.wrap(first), first.length + batch.length))
                    .as("the writer's next write, past the undone range").isInstanceOf(EarlierWriteLostException.class)
                    .hasMessageContaining("No space left on device");
            assertThat(Files.size(file)).as("nothing written past the gap").isEqualTo(first.length);
            writer.write(ByteBuffer.wrap(first), first.length); // told once: writing goes on
            writer.close();
            assertThat(Files.size(file)).isEqualTo(2L * first.length);
        });
    }

    /** A loss a reader came upon first (it waited for the write, saw the file as before) is told to the writer once. */
    @Test
    void aLossAReaderCameUponIsToldToTheWriterOnce() throws Exception {
        onAlmostFullVault((small, fs, file) -> {
            try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
                writer.write(ByteBuffer.wrap(first));
                assertThat(writer.write(ByteBuffer.wrap(batch), first.length)).isEqualTo(batch.length); // runs behind, fails
                assertThat(reader.read(ByteBuffer.allocate(10), 0)).as("the reader waits, sees it undone").isEqualTo(10);
                Files.delete(small.dir().resolve("ballast.bin"));
                assertThatThrownBy(() -> writer.write(ByteBuffer.wrap(first), first.length)).as("the writer's next write")
                        .isInstanceOf(EarlierWriteLostException.class);
                assertThat(writer.write(ByteBuffer.wrap(first), first.length)).as("told once: its retry is written")
                        .isEqualTo(first.length);
                writer.force(false);
            }
            assertThat(Files.size(file)).isEqualTo(2L * first.length);
        });
    }
}
