package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Closing a vault file system closes its channels, destroys its keys, and refuses every later call. */
class LifecycleTest {
    @TempDir
    Path tmp;

    @Test
    void closingClosesChannelsDestroysKeysAndRefusesLaterCalls() throws IOException {
        CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v"), "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST);
        Path file = Files.writeString(fs.getPath("/f.txt"), "data");
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        fs.close();
        assertThat(fs.isOpen()).isFalse();
        assertThat(fs.keysDestroyed()).isTrue();
        assertThat(ch.isOpen()).isFalse();
        assertThatThrownBy(() -> ch.write(ByteBuffer.wrap(new byte[1]), 0)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> Files.readAllBytes(file)).isInstanceOf(ClosedFileSystemException.class);
        assertThatThrownBy(() -> Files.list(fs.getPath("/"))).isInstanceOf(ClosedFileSystemException.class);
        assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/d"))).isInstanceOf(ClosedFileSystemException.class);
        assertThatThrownBy(() -> Files.size(file)).isInstanceOf(ClosedFileSystemException.class);
        fs.close(); // idempotent
    }

    /**
     * A channel opened while the file system closes (another thread locks the vault) must not
     * outlive the close: it would go on reading cleartext with a cryptor the close never saw.
     */
    @Test
    void noChannelOpenedDuringTheCloseOutlivesIt() throws Exception {
        for (int round = 0; round < 40; round++) {
            CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v" + round), "pass phrase".toCharArray(),
                    VaultOnTempDirContractTest.FAST);
            Path file = Files.writeString(fs.getPath("/f.txt"), "secret content");
            List<FileChannel> opened = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> refused = new AtomicReference<>();
            Thread opener = new Thread(() -> {
                try {
                    while (true) {
                        opened.add(FileChannel.open(file, StandardOpenOption.READ));
                    }
                } catch (Throwable e) {
                    refused.set(e);
                }
            });
            opener.start();
            while (opened.size() < 10) {
                Thread.onSpinWait();
            }
            fs.close();
            opener.join();
            assertThat(refused.get()).as("round %d: the opener stopped", round).isNotNull();
            for (FileChannel ch : opened) {
                assertThat(ch.isOpen()).as("round %d: a channel open after the close", round).isFalse();
            }
        }
    }

    @Test
    void aVaultOpensOnceAndAgainAfterClosing() throws IOException {
        Path dir = tmp.resolve("v");
        CofferFileSystems.create(dir, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST).close();
        try (CofferFileSystem fs = CofferFileSystems.open(dir, "pass phrase".toCharArray(), false)) {
            assertThatThrownBy(() -> CofferFileSystems.open(dir, "pass phrase".toCharArray(), false))
                    .isInstanceOf(FileSystemAlreadyExistsException.class);
            Files.writeString(fs.getPath("/kept"), "kept");
        }
        try (CofferFileSystem fs = CofferFileSystems.open(dir, "pass phrase".toCharArray(), true)) {
            assertThat(Files.readString(fs.getPath("/kept"))).isEqualTo("kept");
            assertThatThrownBy(() -> Files.writeString(fs.getPath("/new"), "x")).isInstanceOf(ReadOnlyFileSystemException.class);
            assertThatThrownBy(() -> Files.delete(fs.getPath("/kept"))).isInstanceOf(ReadOnlyFileSystemException.class);
        }
    }

    @Test
    void theProviderOpensVaultsThroughFileSystemsApi() throws IOException {
        Path dir = tmp.resolve("v");
        CofferFileSystems.create(dir, "pass phrase".toCharArray(), VaultOnTempDirContractTest.FAST).close();
        char[] pass = "pass phrase".toCharArray();
        try (java.nio.file.FileSystem fs = java.nio.file.FileSystems.newFileSystem(dir,
                java.util.Map.of("passphrase", pass), getClass().getClassLoader())) {
            assertThat(fs.provider().getScheme()).isEqualTo("coffer");
            assertThat(Files.isDirectory(fs.getPath("/"))).isTrue();
            assertThat(fs.getPath("/a").toUri().getScheme()).isEqualTo("coffer");
        }
        assertThat(pass).containsOnly('\0');
    }
}
