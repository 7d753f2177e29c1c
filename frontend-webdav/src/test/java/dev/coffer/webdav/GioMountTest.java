package dev.coffer.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GioMount} with a stand-in {@code gio} (a shell script that logs its arguments and its
 * standard input): the credential reaches {@code gio mount} on its standard input, never in its
 * arguments, and no other command gets it; a {@code gio mount} that hangs past its time limit is
 * killed and followed by a forced {@code gio mount -u} of the same URI (a late mount by gvfs must
 * not outlive the failed attempt); a failing one too; and an interrupted one, whose forced unmount
 * still runs to its end, after which the thread is interrupted again. The real gio is tested by the app's GioServeIT
 * and WebDavMounterIT.
 */
class GioMountTest {
    @TempDir
    Path tmp;

    /** A fake gio: logs "ARGS" per call and the stdin of "mount URI"; "mount URI" then does what {@code mountBehaviour} says. */
    private Path fakeGio(String mountBehaviour) throws IOException {
        return fakeGio(mountBehaviour, "true");
    }

    /** As {@link #fakeGio(String)}; "mount -u ..." also does what {@code unmountBehaviour} says. */
    private Path fakeGio(String mountBehaviour, String unmountBehaviour) throws IOException {
        Path script = tmp.resolve("gio");
        Files.writeString(script, "#!/bin/sh\n"
                + "echo \"$*\" >> " + tmp.resolve("calls.log") + "\n"
                + "if [ \"$1\" = mount ] && [ \"$2\" != -u ]; then\n"
                + "  cat > " + tmp.resolve("mount-stdin") + "\n"
                + "  " + mountBehaviour + "\n"
                + "fi\n"
                + "if [ \"$1\" = mount ] && [ \"$2\" = -u ]; then\n"
                + "  " + unmountBehaviour + "\n"
                + "fi\n"
                + "if [ \"$1\" = info ]; then echo \"name: /\"; fi\n"
                + "exit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    void aStopWaits30sForWritersUnlessTheTestPropertyIsSet() {
        assertThat(System.getProperty(GioMount.BUSY_WAIT_PROPERTY)).as("set only in GioServeIT's coffer").isNull();
        assertThat(GioMount.BUSY_WAIT_SECONDS).isEqualTo(30);
    }

    private List<String> calls() throws IOException {
        return Files.readAllLines(tmp.resolve("calls.log"));
    }

    @Test
    void theCredentialGoesToGioMountOnStdinOnly() throws Exception {
        Path gio = fakeGio("true");
        try (ServedVault served = new ServedVault(tmp, true)) {
            String password = served.password();
            String uri = GioMount.uri(served.server);
            GioMount m = GioMount.mount(gio, "unix:path=/nonexistent", served.server);
            assertThat(m.where()).isEqualTo(uri);
            assertThat(Files.readString(tmp.resolve("mount-stdin"))).isEqualTo("coffer\n" + password + "\n");
            m.closeForcibly();
            assertThat(calls()).containsExactly("mount " + uri, "info -a standard::name " + uri, "mount -u -f " + uri);
            assertThat(String.join("\n", calls())).doesNotContain(password);
        }
    }

    @Test
    void withoutCredentialGioMountGetsNoInput() throws Exception {
        Path gio = fakeGio("true");
        try (ServedVault served = new ServedVault(tmp)) {
            GioMount.mount(gio, "unix:path=/nonexistent", served.server).closeForcibly();
            assertThat(Files.readString(tmp.resolve("mount-stdin"))).isEmpty();
        }
    }

    @Test
    void aGioMountPastItsTimeLimitIsKilledAndWhateverItMountedIsUnmounted() throws Exception {
        Path gio = fakeGio("exec sleep 30");
        try (ServedVault served = new ServedVault(tmp, true)) {
            String uri = GioMount.uri(served.server);
            long start = System.nanoTime();
            assertThatThrownBy(() -> GioMount.mount(gio, "unix:path=/nonexistent", served.server, 1))
                    .isInstanceOf(IOException.class).hasMessageContaining("did not finish within 1 s")
                    .hasMessageNotContaining(served.server.secretSegment());
            assertThat(System.nanoTime() - start).as("not waiting for the hung gio").isLessThan(20_000_000_000L);
            assertThat(calls()).containsExactly("mount " + uri, "mount -u -f " + uri);
        }
    }

    @Test
    void aFailedGioMountIsFollowedByAForcedUnmount() throws Exception {
        Path gio = fakeGio("echo 'gio: dav://x: Operation not supported'; exit 2");
        try (ServedVault served = new ServedVault(tmp, true)) {
            String uri = GioMount.uri(served.server);
            assertThatThrownBy(() -> GioMount.mount(gio, "unix:path=/nonexistent", served.server))
                    .isInstanceOf(IOException.class).hasMessageContaining("exit 2");
            assertThat(calls()).containsExactly("mount " + uri, "mount -u -f " + uri);
        }
    }

    @Test
    void anInterruptedGioMountIsStillFollowedByAForcedUnmountAndStaysInterrupted() throws Exception {
        // the forced unmount takes a moment and logs when it has finished: run with the interrupt flag set, it would be killed at once
        Path gio = fakeGio("exec sleep 30", "sleep 1; echo unmounted >> " + tmp.resolve("calls.log"));
        try (ServedVault served = new ServedVault(tmp, true)) {
            String uri = GioMount.uri(served.server);
            MountingThread mounting = MountingThread.start(() -> GioMount.mount(gio, "unix:path=/nonexistent", served.server));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!Files.exists(tmp.resolve("calls.log")) || !calls().contains("mount " + uri)) {
                assertThat(System.nanoTime()).as("gio mount started").isLessThan(deadline);
                Thread.sleep(20);
            }
            assertThat(mounting.interruptAndJoin(30_000)).as("the mounting thread gave up").isTrue();
            assertThat(mounting.thrown()).isInstanceOf(IOException.class).hasMessageContaining("interrupted")
                    .hasMessageNotContaining(served.server.secretSegment());
            assertThat(calls()).containsExactly("mount " + uri, "mount -u -f " + uri, "unmounted");
            assertThat(mounting.interruptedAfterwards()).as("the interrupt is restored after the clean-up").isTrue();
        }
    }
}
