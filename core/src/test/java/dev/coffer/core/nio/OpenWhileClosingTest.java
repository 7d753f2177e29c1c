package dev.coffer.core.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open (also a listing, a stat, an access check, a symlink's read, an attribute view's read or change) that races the file system's close (another thread locks the vault) fails as any call
 * after the close does, with ClosedFileSystemException: not with the IllegalStateException of a key
 * the close destroyed meanwhile (the SIV key under a name's encryption, the content keys under a
 * file's header), which a frontend would take for a bug instead of a locked vault.
 */
class OpenWhileClosingTest {
    @TempDir
    Path tmp;

    @Test
    void anOpenRacingTheCloseFailsWithClosedFileSystemException() throws Exception {
        for (int round = 0; round < 30; round++) {
            CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v" + round), "pass phrase".toCharArray(),
                    VaultOnTempDirContractTest.FAST);
            Files.createDirectories(fs.getPath("/a/b/c"));
            Path existing = Files.writeString(fs.getPath("/a/b/c/f.txt"), "secret content");
            Files.writeString(fs.getPath("/a/b/c/tiny"), "x");
            Path link = Files.createSymbolicLink(fs.getPath("/a/b/c/link"), fs.getPath("f.txt"));
            AtomicInteger opens = new AtomicInteger();
            List<FileChannel> opened = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> refused = new AtomicReference<>();
            int r = round;
            Thread opener = new Thread(() -> {
                try {
                    for (int i = 0; ; i++) {
                        // A listing and a stat race the close the same way.
                        try (var listing = Files.newDirectoryStream(fs.getPath("/a/b/c"))) {
                            listing.forEach(entry -> { });
                        }
                        Files.readAttributes(existing, java.nio.file.attribute.BasicFileAttributes.class);
                        fs.provider().checkAccess(existing);
                        Files.readSymbolicLink(link);
                        Path p = switch (i % 3) {
                            case 0 -> existing;
                            case 1 -> fs.getPath("/a/b/c/tiny");
                            default -> fs.getPath("/a/b/c/new-" + r + "-" + i);
                        };
                        opened.add(FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ,
                                StandardOpenOption.WRITE));
                        opens.incrementAndGet();
                    }
                } catch (Throwable e) {
                    refused.set(e);
                }
            });
            opener.start();
            // Close at a different point of an open each round.
            while (opens.get() < 3 + round % 7) {
                Thread.onSpinWait();
            }
            for (int spin = round * 37 % 500; spin > 0; spin--) {
                Thread.onSpinWait();
            }
            fs.close();
            opener.join();
            assertThat(refused.get()).as("round %d", round).isInstanceOf(ClosedFileSystemException.class);
            for (FileChannel ch : opened) {
                assertThat(ch.isOpen()).as("round %d: a channel open after the close", round).isFalse();
            }
        }
    }

    /**
     * An attribute view's calls (what a frontend's getattr, utimens, chmod, chown use) race the close
     * the same way, and must fail with ClosedFileSystemException too.
     */
    @Test
    void anAttributeViewRacingTheCloseFailsWithClosedFileSystemException() throws Exception {
        for (int round = 0; round < 30; round++) {
            CofferFileSystem fs = CofferFileSystems.create(tmp.resolve("v" + round), "pass phrase".toCharArray(),
                    VaultOnTempDirContractTest.FAST);
            Files.createDirectories(fs.getPath("/a/b/c"));
            Path existing = Files.writeString(fs.getPath("/a/b/c/f.txt"), "secret content");
            AtomicInteger calls = new AtomicInteger();
            AtomicReference<Throwable> refused = new AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    for (;;) {
                        PosixFileAttributeView view = Files.getFileAttributeView(existing, PosixFileAttributeView.class);
                        PosixFileAttributes attributes = view.readAttributes();
                        view.setTimes(FileTime.fromMillis(1000), null, null);
                        view.setPermissions(PosixFilePermissions.fromString("rw-r-----"));
                        view.setOwner(attributes.owner());
                        view.setGroup(attributes.group());
                        calls.incrementAndGet();
                    }
                } catch (Throwable e) {
                    refused.set(e);
                }
            });
            caller.start();
            while (calls.get() < 3 + round % 7) {
                Thread.onSpinWait();
            }
            for (int spin = round * 37 % 500; spin > 0; spin--) {
                Thread.onSpinWait();
            }
            fs.close();
            caller.join();
            assertThat(refused.get()).as("round %d", round).isInstanceOf(ClosedFileSystemException.class);
        }
    }
}
