package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.testing.TmpfsMount;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import jnr.ffi.LibraryLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * In a session whose language is not English, the JDK's error reasons are strerror(3)'s in that
 * language: the errno table, which reads them, would answer EIO for a full disk. The mount makes
 * the process's messages English first. The session here is German ({@code de_DE.UTF-8}, which
 * scripts/test.sh generates), set for this process alone the way a German desktop session sets it.
 */
class SystemMessagesTest {
    private static final SystemMessages.Locales C = LibraryLoader.create(SystemMessages.Locales.class).load("c");
    private static final int LC_MESSAGES = SystemMessages.messagesCategory(System.getProperty("os.name"));

    @TempDir
    Path tmp;

    @AfterEach
    void english() {
        assertThat(SystemMessages.inEnglish()).isTrue();
    }

    private static void germanSession() {
        assertThat(C.setlocale(LC_MESSAGES, "de_DE.UTF-8"))
                .as("the de_DE.UTF-8 locale (scripts/test.sh generates it with localedef)").isNotNull();
    }

    private static FileSystemException notADirectory() {
        try {
            Files.newByteChannel(Path.of("/etc/passwd/x")).close();
        } catch (FileSystemException e) {
            return e;
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("opened a file below a file");
    }

    @Test
    void aGermanReasonIsNotRecognisedUntilTheMessagesAreEnglish() {
        germanSession();
        FileSystemException german = notADirectory();
        assertThat(german.getReason()).isEqualTo("Ist kein Verzeichnis");
        assertThat(Errno.of(german)).isEqualTo(Errno.EIO);

        assertThat(SystemMessages.inEnglish()).isTrue();

        FileSystemException english = notADirectory();
        assertThat(english.getReason()).isEqualTo("Not a directory");
        assertThat(Errno.of(english)).isEqualTo(ErrorCodes.ENOTDIR());
    }

    @Test
    void theCategoryIsTheCLibrarysOwn() {
        assertThat(SystemMessages.messagesCategory("Linux")).isEqualTo(5);
        assertThat(SystemMessages.messagesCategory("Mac OS X")).isEqualTo(6);
        assertThat(SystemMessages.messagesCategory("Windows 11")).isEqualTo(-1);
    }

    @Test
    @Timeout(120)
    void aFullDiskUnderAMountStartedInAGermanSessionReachesProgramsAsEnospc() throws Exception {
        try (TmpfsMount tmpfs = TmpfsMount.mount(tmp.resolve("small"), 4);
                CofferFileSystem fs = CofferFileSystems.create(tmpfs.dir().resolve("vault"), "test passphrase".toCharArray(),
                        VaultMountTest.FAST)) {
            germanSession();
            Mounts mounts = new Mounts();
            try {
                Path mnt = mounts.mount(fs.getPath("/"), tmp.resolve("mnt")).mountPoint();
                Shell.Result dd = Shell.run(tmp, "dd", "if=/dev/zero", "of=" + mnt.resolve("filler.bin"), "bs=64k",
                        "count=256", "conv=fsync");
                assertThat(dd.exit()).as(dd.output()).isNotZero();
                assertThat(dd.output()).contains("No space left on device");
            } finally {
                mounts.close();
            }
        }
    }
}
