package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Davfs2Mount} with a stand-in for util-linux's {@code mount} (a shell script, through the
 * package-private seam): a mount that fails after printing mount.davfs's prompt with the URL on
 * standard error raises an error naming the URL with {@code SECRET} instead of its secret segment;
 * and a mount interrupted while it hangs, after it really mounted something (a tmpfs, as root) at
 * the mount point, still has that late mount detached ({@code umount -l}), after which the thread
 * is interrupted again. davfs2 itself is tested by DavfsDifferentialTest and the app's ServeIT.
 */
class Davfs2MountFailureTest {
    @TempDir
    Path tmp;

    /** A fake mount: logs its arguments, reads the two lines of its input, then runs {@code behaviour} ($6: the mount point). */
    private Path fakeMount(String behaviour) throws IOException {
        Path script = tmp.resolve("mount");
        Files.writeString(script, "#!/bin/sh\n"
                + "echo \"$*\" >> " + tmp.resolve("calls.log") + "\n"
                + "read user; read password\n"
                + behaviour + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private static boolean mounted(Path mountPoint) throws IOException {
        return Files.readString(Path.of("/proc/mounts")).contains(" " + mountPoint + " ");
    }

    @Test
    void aFailedMountsErrorNamesTheUrlWithoutItsSecret() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        try (ServedVault served = new ServedVault(tmp, true)) {
            String secret = served.server.secretSegment();
            // as mount.davfs 1.7 words its prompt and failure, with the URL it was given ($5)
            Path mount = fakeMount("echo \"mount.davfs: Please enter the username to authenticate with server\" >&2\n"
                    + "echo \"$5 or hit enter for none.\" >&2\n"
                    + "echo \"mount.davfs: Mounting failed.\" >&2\n"
                    + "echo \"Could not authenticate to server $5: 401 Unauthorized\" >&2\n"
                    + "exit 32");
            String redacted = "http://127.0.0.1:" + served.server.port() + "/SECRET/";

            assertThatThrownBy(() -> Davfs2Mount.mount(mount.toString(), served.server, mnt)).isInstanceOf(IOException.class)
                    .hasMessageContaining("exit 32")
                    .hasMessageContaining(redacted + " or hit enter for none.")
                    .hasMessageContaining("Could not authenticate to server " + redacted + ": 401")
                    .hasMessageNotContaining(secret);
            assertThat(Files.readString(tmp.resolve("calls.log"))).as("the fake got the real URL").contains(served.server.url());
            assertThat(mounted(mnt)).isFalse();
        }
    }

    @Test
    void anInterruptedMountStillHasItsLateMountDetachedAndStaysInterrupted() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        // it mounts (as mount.davfs would, late) and then hangs until killed
        Path mount = fakeMount("/bin/mount -t tmpfs coffer-late-mount \"$6\" || exit 1\n"
                + "echo mounted >> " + tmp.resolve("calls.log") + "\n"
                + "exec sleep 30");
        try (ServedVault served = new ServedVault(tmp, true)) {
            MountingThread mounting = MountingThread.start(() -> Davfs2Mount.mount(mount.toString(), served.server, mnt));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!Files.exists(tmp.resolve("calls.log")) || !Files.readAllLines(tmp.resolve("calls.log")).contains("mounted")) {
                assertThat(System.nanoTime()).as("the fake mount mounted (as root)").isLessThan(deadline);
                Thread.sleep(20);
            }
            assertThat(mounted(mnt)).isTrue();
            assertThat(mounting.interruptAndJoin(30_000)).as("the mounting thread gave up").isTrue();
            assertThat(mounting.thrown()).isInstanceOf(IOException.class).hasMessageContaining("interrupted")
                    .hasMessageNotContaining(served.server.secretSegment());
            assertThat(mounted(mnt)).as("the late mount is detached").isFalse();
            assertThat(mounting.interruptedAfterwards()).as("the interrupt is restored after the clean-up").isTrue();
        } finally {
            if (mounted(mnt)) { // only after a failure above: leave no mount behind
                new ProcessBuilder(List.of("umount", "-l", mnt.toString())).inheritIO().start().waitFor();
            }
        }
    }
}
