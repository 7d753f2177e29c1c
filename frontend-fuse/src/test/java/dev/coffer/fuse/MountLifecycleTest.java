package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mount points before and after, unmounting (clean, busy, forced, by somebody else), stale mounts, read-only. */
class MountLifecycleTest {
    @TempDir
    Path tmp;

    private final Mounts mounts = new Mounts();
    private Path backing;

    @BeforeEach
    void backing() throws IOException {
        backing = Files.createDirectory(tmp.resolve("backing"));
        Files.writeString(backing.resolve("file.txt"), "content");
    }

    @AfterEach
    void unmount() throws Exception {
        mounts.close();
    }

    @Test
    void aMissingMountPointIsCreatedWithItsParentsAndRemovedAfterUnmount() throws IOException {
        FuseMount m = mounts.mount(backing, tmp.resolve("a/b/mnt"));
        assertThat(Files.readString(m.mountPoint().resolve("file.txt"))).isEqualTo("content");
        m.unmount(false);
        assertThat(m.isMounted()).isFalse();
        assertThat(MountTable.isMounted(m.mountPoint())).isFalse();
        assertThat(Files.exists(tmp.resolve("a"))).as("every folder Coffer created is removed").isFalse();
    }

    /**
     * A mount point whose parent is reached through a symbolic link (a home folder under /home -> var/home):
     * the mount table names it by its real path, which is what the mount must check and unmount.
     */
    @Test
    void aMountPointUnderALinkedFolderUnmountsAndIsRemoved() throws IOException {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        long start = System.nanoTime();
        FuseMount m = mounts.mount(backing, link.resolve("mnt"));
        assertThat(m.mountPoint()).isEqualTo(real.toRealPath().resolve("mnt"));
        assertThat(Files.readString(link.resolve("mnt/file.txt"))).isEqualTo("content");
        m.unmount(false);
        assertThat(m.isMounted()).isFalse();
        assertThat(MountTable.isMounted(real.resolve("mnt"))).isFalse();
        assertThat(Files.exists(real.resolve("mnt"))).as("the folder Coffer created is removed").isFalse();
        assertThat(System.nanoTime() - start).as("no 30 s wait for a session that never ended").isLessThan(20_000_000_000L);
    }

    @Test
    void aStaleMountUnderALinkedFolderIsClearedOnTheNextMount() throws Exception {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        killedMountAt(link.resolve("mnt"));
        assertThat(MountTable.isMounted(real.resolve("mnt"))).as("left mounted").isTrue();
        FuseMount m = mounts.mount(backing, link.resolve("mnt"));
        assertThat(Files.readString(m.mountPoint().resolve("file.txt"))).isEqualTo("content");
        assertThat(MountTable.entries().stream().filter(e -> e.mountPoint().equals(m.mountPoint())).count()).isEqualTo(1);
    }

    @Test
    void anExistingEmptyMountPointStays() throws IOException {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        FuseMount m = mounts.mount(backing, mnt);
        m.unmount(false);
        assertThat(Files.isDirectory(mnt)).isTrue();
        assertThat(Files.list(mnt).count()).isZero();
    }

    @Test
    void aNonEmptyFolderOrAFileIsRefusedWithAClearMessage() throws IOException {
        Path full = Files.createDirectory(tmp.resolve("full"));
        Files.writeString(full.resolve("mine"), "mine");
        assertThatThrownBy(() -> mounts.mount(backing, full))
                .isInstanceOf(MountPointException.class).hasMessageContaining("not empty").hasMessageContaining(full.toString());
        assertThat(Files.readString(full.resolve("mine"))).isEqualTo("mine");
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> mounts.mount(backing, file))
                .isInstanceOf(MountPointException.class).hasMessageContaining("not a folder");
    }

    /** Named by a link, the refusal names the link the user gave and the folder it leads to. */
    @Test
    void aLinkToANonEmptyFolderIsRefusedNamingTheLinkAndTheFolder() throws IOException {
        Path full = Files.createDirectory(tmp.resolve("full")).toRealPath();
        Files.writeString(full.resolve("mine"), "mine");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), full);
        assertThatThrownBy(() -> mounts.mount(backing, link))
                .isInstanceOf(MountPointException.class).hasMessageContaining("not empty")
                .hasMessageContaining(link.toString()).hasMessageContaining("a link to " + full);
        assertThat(Files.readString(full.resolve("mine"))).isEqualTo("mine");
    }

    @Test
    void aLiveMountIsNotMountedOver() throws IOException {
        FuseMount m = mounts.mount(backing, tmp.resolve("mnt"));
        assertThatThrownBy(() -> FuseMount.mount(backing, m.mountPoint(), MountOptions.defaults(false)))
                .isInstanceOf(MountPointException.class).hasMessageContaining("already mounted");
        assertThat(Files.readString(m.mountPoint().resolve("file.txt"))).isEqualTo("content");
    }

    @Test
    void aBusyMountStaysMountedUntilItsFilesAreClosed() throws IOException {
        FuseMount m = mounts.mount(backing, tmp.resolve("mnt"));
        try (FileChannel open = FileChannel.open(m.mountPoint().resolve("file.txt"), StandardOpenOption.READ)) {
            assertThatThrownBy(() -> m.unmount(false)).isInstanceOf(MountBusyException.class).hasMessageContaining("busy");
            assertThat(m.isMounted()).isTrue();
            assertThat(Files.readString(m.mountPoint().resolve("file.txt"))).isEqualTo("content");
            assertThat(open.size()).isEqualTo(7);
        }
        m.unmount(false);
        assertThat(m.isMounted()).isFalse();
    }

    @Test
    void aForcedUnmountDetachesAtOnceAndEndsWhenTheLastFileCloses() throws IOException {
        FuseMount m = mounts.mount(backing, tmp.resolve("mnt"));
        FileChannel open = FileChannel.open(m.mountPoint().resolve("file.txt"), StandardOpenOption.READ);
        m.unmount(true);
        assertThat(MountTable.isMounted(m.mountPoint())).as("detached").isFalse();
        assertThat(Files.exists(m.mountPoint())).as("the mount point Coffer created is removed at once").isFalse();
        assertThatThrownBy(() -> Files.writeString(m.mountPoint().resolve("late.txt"), "cleartext"))
                .as("a program writing by path fails instead of writing cleartext to the local disk")
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
        assertThat(open.size()).as("the open file is still served").isEqualTo(7);
        open.close();
        assertThat(m.awaitEnd(10, TimeUnit.SECONDS)).isTrue();
        assertThat(m.isMounted()).isFalse();
    }

    /**
     * A program still writing by path makes the mount point again after a forced unmount removed it:
     * what it writes there is cleartext on the local disk. The forced unmount says so, naming the
     * folder, before it returns (coffer mount --force then locks the vault and ends: the session's
     * own end, which would also notice, may come only after the process is gone), and the watch for
     * a detach by somebody else does not take the forced unmount for one.
     */
    @Test
    void aMountPointMadeAgainAfterAForcedUnmountIsReportedAsHoldingUnencryptedFiles() throws Exception {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events = new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        events.start();
        root.addAppender(events);
        FuseMount m = mounts.mount(backing, tmp.resolve("a/mnt"));
        Path mnt = m.mountPoint();
        FileChannel open = FileChannel.open(mnt.resolve("file.txt"), StandardOpenOption.READ);
        Thread writer = new Thread(() -> { // a program writing by path, as soon as the folder has gone
            try {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while ((Files.exists(mnt) || MountTable.isMounted(mnt)) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                Thread.sleep(600); // late in the forced unmount's wait for the session's end
                Files.createDirectories(mnt);
                Files.writeString(mnt.resolve("late.txt"), "cleartext");
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            writer.start();
            m.unmount(true);
            writer.join(10_000);
            assertThat(Files.readString(mnt.resolve("late.txt"))).as("the program's file, left for the user").isEqualTo("cleartext");
            assertThat(events.list).filteredOn(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                    .anySatisfy(msg -> assertThat(msg).contains(mnt.toString()).contains("NOT encrypted")
                            .contains("made again after the unmount"))
                    .noneSatisfy(msg -> assertThat(msg).contains("unmounted from elsewhere"));
        } finally {
            root.detachAppender(events);
            open.close();
            m.awaitEnd(10, TimeUnit.SECONDS);
            Files.deleteIfExists(mnt.resolve("late.txt"));
        }
    }

    /**
     * Somebody detaches the mount (lazy unmount) while a file is still open: the session goes on until
     * it closes, but the folder Coffer created goes at once (a program writing there by path would put
     * cleartext on the disk), and an unmount meanwhile says busy instead of failing after 30 s.
     */
    @Test
    void aLazyUnmountBySomebodyElseWithAFileOpenRemovesTheCreatedFolderAtOnce() throws Exception {
        FuseMount m = mounts.mount(backing, tmp.resolve("a/mnt"));
        FileChannel open = FileChannel.open(m.mountPoint().resolve("file.txt"), StandardOpenOption.READ);
        try {
            Shell.ok(tmp, "fusermount", "-u", "-z", m.mountPoint().toString());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Files.exists(m.mountPoint()) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(Files.exists(m.mountPoint())).as("the created folder is gone while the file is open").isFalse();
            assertThat(m.isMounted()).as("the session goes on for the open file").isTrue();
            assertThatThrownBy(() -> m.unmount(false)).isInstanceOf(MountBusyException.class);
            assertThat(open.read(java.nio.ByteBuffer.allocate(7), 0)).isEqualTo(7); // still served
        } finally {
            open.close();
        }
        assertThat(m.awaitEnd(10, TimeUnit.SECONDS)).as("the session ends with the last close").isTrue();
        assertThat(Files.exists(tmp.resolve("a"))).isFalse();
    }

    @Test
    void anUnmountBySomebodyElseEndsTheSessionAndCleansUp() throws Exception {
        FuseMount m = mounts.mount(backing, tmp.resolve("mnt"));
        Shell.ok(tmp, "fusermount", "-u", m.mountPoint().toString());
        assertThat(m.awaitEnd(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.exists(m.mountPoint())).as("the mount point Coffer created is removed").isFalse();
        m.unmount(false); // nothing left to do
    }

    @Test
    void aStaleMountLeftByAKilledProcessIsClearedOnTheNextMount() throws Exception {
        Path mnt = tmp.resolve("mnt");
        killedMountAt(mnt);
        assertThat(MountTable.isMounted(mnt)).as("left mounted").isTrue();
        assertThatThrownBy(() -> Files.list(mnt)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("Transport endpoint is not connected");
        FuseMount m = mounts.mount(backing, mnt);
        assertThat(Files.readString(m.mountPoint().resolve("file.txt"))).isEqualTo("content");
        assertThat(MountTable.entries().stream().filter(e -> e.mountPoint().equals(m.mountPoint())).count()).isEqualTo(1);
    }

    @Test
    void aMountWhoseProcessIsStoppedIsRefusedNotWaitedForForever() throws Exception {
        Path mnt = tmp.resolve("mnt");
        Process child = childMountAt(mnt);
        // Should the refusal regress into waiting, the stopped server is ended after a while, so that the
        // test fails instead of hanging the build (a stat waiting for a FUSE reply cannot be interrupted).
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(40_000);
                new ProcessBuilder("kill", "-CONT", Long.toString(child.pid())).start().waitFor();
                child.destroyForcibly();
            } catch (InterruptedException | IOException e) {
                // the test ended in time
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            Shell.ok(tmp, "kill", "-STOP", Long.toString(child.pid()));
            long start = System.nanoTime();
            MountPoint.staleProbeMillis = 1_000; // a stopped process never answers: no need to wait 5 s for that
            try {
                assertThatThrownBy(() -> FuseMount.mount(backing, mnt, MountOptions.defaults(false)))
                        .isInstanceOf(MountPointException.class).hasMessageContaining("does not answer")
                        .hasMessageContaining("fusermount -u -z");
            } finally {
                MountPoint.staleProbeMillis = MountPoint.STALE_PROBE_MILLIS;
            }
            assertThat(System.nanoTime() - start).isLessThan(30_000_000_000L);
        } finally {
            Shell.ok(tmp, "fusermount", "-u", "-z", mnt.toString());
            Shell.ok(tmp, "kill", "-CONT", Long.toString(child.pid()));
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            watchdog.interrupt();
        }
    }

    /**
     * SIGTERM to a process that mounted and has not yet taken the mount over (no shutdown hook of its
     * own, as coffer mount before it installs its hook): the mount is undone and the folder it created
     * removed, instead of a stale mount and the folder left behind.
     */
    @Test
    void aSignalBeforeTheOwnerTookTheMountOverUnmountsAndRemovesTheCreatedFolder() throws Exception {
        Path mnt = tmp.resolve("a/mnt");
        Process child = childMountAt(mnt, "mounted");
        child.destroy(); // SIGTERM
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(MountTable.isMounted(mnt)).as("left mounted").isFalse();
        assertThat(Files.exists(tmp.resolve("a"))).as("the folders the mount created").isFalse();
    }

    /** As above, the signal coming while the mount starts: the kernel's mount made, the mount call not yet returned. */
    @Test
    void aSignalWhileTheMountIsStartingUnmountsOnceItHasStarted() throws Exception {
        Path mnt = tmp.resolve("a/mnt");
        Process child = childMountAt(mnt, "kernel-mounted", "slow-init");
        assertThat(MountTable.isMounted(mnt)).as("the kernel's mount is made").isTrue();
        child.destroy(); // SIGTERM
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(MountTable.isMounted(mnt)).as("left mounted").isFalse();
        assertThat(Files.exists(tmp.resolve("a"))).as("the folders the mount created").isFalse();
    }

    /**
     * A signal while the kernel's INIT is still unanswered does not hold the exit until it is (the
     * exit guard waited up to a minute for the mount call, so 30 s for the INIT): nothing can have
     * used the mount yet, and it is detached at once, leaving no mount and no folder behind.
     */
    @Test
    void aSignalWhileTheKernelsInitIsUnansweredEndsTheProcessWithoutWaitingForIt() throws Exception {
        Path mnt = tmp.resolve("a/mnt");
        Process child = childMountAt(mnt, "kernel-mounted", "stalled-init");
        assertThat(MountTable.isMounted(mnt)).as("the kernel's mount is made").isTrue();
        child.destroy(); // SIGTERM
        try {
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("ended before the INIT 20 s late").isTrue();
        } finally {
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(MountTable.isMounted(mnt)).as("left mounted").isFalse();
        assertThat(Files.exists(tmp.resolve("a"))).as("the folders the mount created").isFalse();
    }

    /**
     * The mounting thread interrupted while the kernel's INIT is still unanswered (a GUI cancelling
     * its mount task): the mount call fails, so nobody owns the mount. It is undone and the folder it
     * created removed, instead of a mount left serving the vault with no owner to unmount it.
     */
    @Test
    void anInterruptWhileTheMountIsStartingUndoesTheMount() throws Exception {
        Path mnt = tmp.resolve("a/mnt");
        java.util.concurrent.CountDownLatch initAsked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch answerInit = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch initAnswered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CompletableFuture<Throwable> outcome = new java.util.concurrent.CompletableFuture<>();
        Thread mounting = new Thread(() -> {
            try {
                FuseMount.mount(backing, mnt, MountOptions.defaults(false), (root, uid, gid) -> new FuseAdapter(root, uid, gid) {
                    @Override
                    public jnr.ffi.Pointer init(jnr.ffi.Pointer conn) {
                        initAsked.countDown();
                        try {
                            answerInit.await(30, TimeUnit.SECONDS); // until the mount call has failed
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        try {
                            return super.init(conn);
                        } finally {
                            initAnswered.countDown();
                        }
                    }
                });
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        try {
            mounting.start();
            assertThat(initAsked.await(30, TimeUnit.SECONDS)).isTrue();
            mounting.interrupt();
            assertThat(outcome.get(30, TimeUnit.SECONDS)).as("the mount call fails").isInstanceOf(IOException.class);
            answerInit.countDown(); // the INIT is answered after the mount call failed
            assertThat(initAnswered.await(30, TimeUnit.SECONDS)).as("the INIT answered").isTrue();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while ((MountTable.isMounted(mnt) || Files.exists(tmp.resolve("a"))) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(MountTable.isMounted(mnt)).as("left mounted with no owner").isFalse();
            assertThat(Files.exists(tmp.resolve("a"))).as("the folders the mount created").isFalse();
        } finally {
            if (MountTable.isMounted(mnt)) {
                Shell.ok(tmp, "fusermount", "-u", "-z", mnt.toString());
            }
        }
    }

    /**
     * At exit, a busy mount no owner asked to unmount is detached by the exit guard: that is no
     * detach by somebody else, and is not reported as one ("unmounted from elsewhere ... the vault
     * stays unlocked"), which would be untrue as the process ends.
     */
    @Test
    void theExitGuardsDetachIsNotReportedAsAnUnmountFromElsewhere() throws Exception {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events = new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        events.start();
        root.addAppender(events);
        FuseMount m = mounts.mount(backing, tmp.resolve("a/mnt"));
        FileChannel open = FileChannel.open(m.mountPoint().resolve("file.txt"), StandardOpenOption.READ);
        try {
            m.ownerWaitMillis(300); // no owner here to ask for the unmount: 3 s would only be waited out
            m.unmountAtExit();
            assertThat(MountTable.isMounted(m.mountPoint())).as("detached").isFalse();
            // a look that ends now may have begun before the detach: the one after it began after
            long looked = m.detachChecks();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (m.detachChecks() < looked + 2 && System.nanoTime() < deadline && !reportedElsewhere(events)) {
                Thread.sleep(20);
            }
            assertThat(events.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                    .noneSatisfy(msg -> assertThat(msg).contains("unmounted from elsewhere"));
            assertThat(m.detachChecks()).as("the detach watch looked at the detached mount").isGreaterThanOrEqualTo(looked + 2);
        } finally {
            root.detachAppender(events);
            open.close();
        }
        assertThat(m.awaitEnd(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.exists(tmp.resolve("a"))).isFalse();
    }

    /** Whether a detach by somebody else was reported (the appender appends under its own monitor). */
    private static boolean reportedElsewhere(ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events) {
        synchronized (events) {
            return events.list.stream().anyMatch(e -> e.getFormattedMessage().contains("unmounted from elsewhere"));
        }
    }

    /** Mounts {@code backing} at {@code mnt} in a child JVM and kills it (SIGKILL: no unmount). */
    private void killedMountAt(Path mnt) throws Exception {
        Process child = childMountAt(mnt);
        child.destroyForcibly(); // SIGKILL: no shutdown hook, no unmount
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Mounts {@code backing} at {@code mnt} in a child JVM; returns once it is mounted. */
    private Process childMountAt(Path mnt) throws Exception {
        return childMountAt(mnt, "mounted");
    }

    /** As above, with {@code options} for {@link MountProcess}; returns once the child printed {@code firstLine}. */
    private Process childMountAt(Path mnt, String firstLine, String... options) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1")); // a child that only mounts starts ~0.6 s sooner without C2's compiles
        if (Runtime.version().feature() >= 24) {
            // As the launcher does: jnr-ffi's native calls and Unsafe, allowed explicitly (JEP 472, 498),
            // or the child's first line is the JDK's warning instead of "mounted".
            command.addAll(java.util.List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"));
        }
        command.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"), MountProcess.class.getName(),
                backing.toString(), mnt.toString()));
        command.addAll(List.of(options));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo(firstLine);
        return child;
    }

    @Test
    void aReadOnlyMountRefusesWritesWithErofs() throws IOException {
        FuseMount m = mounts.mount(backing, tmp.resolve("mnt"), MountOptions.defaults(true));
        Path mnt = m.mountPoint();
        assertThat(Files.readString(mnt.resolve("file.txt"))).isEqualTo("content");
        for (ThrowingWrite w : List.<ThrowingWrite>of(
                () -> Files.writeString(mnt.resolve("new"), "x"),
                () -> Files.writeString(mnt.resolve("file.txt"), "x"),
                () -> Files.createDirectory(mnt.resolve("d")),
                () -> Files.delete(mnt.resolve("file.txt")))) {
            assertThatThrownBy(w::run).isInstanceOf(FileSystemException.class).hasMessageContaining("Read-only file system");
        }
        assertThat(Files.readString(backing.resolve("file.txt"))).isEqualTo("content");
    }

    @Test
    void missingFuseIsNamedWithThePackageToInstallAndTheWebDavAlternative() {
        assertThatThrownBy(() -> NativeFuse.load(tmp.resolve("no-fuse-device"), NativeFuse.LIBRARIES, System.getenv("PATH")))
                .isInstanceOf(FuseUnavailableException.class)
                .hasMessageContaining("does not exist").hasMessageContaining("modprobe fuse").hasMessageContaining("coffer serve");
        assertThatThrownBy(() -> NativeFuse.load(NativeFuse.DEVICE, List.of("libfuse-not-here.so.2"), System.getenv("PATH")))
                .isInstanceOf(FuseUnavailableException.class)
                .hasMessageContaining("libfuse2").hasMessageContaining("coffer serve");
        assertThatThrownBy(() -> NativeFuse.load(NativeFuse.DEVICE, NativeFuse.LIBRARIES, tmp.toString()))
                .isInstanceOf(FuseUnavailableException.class)
                .hasMessageContaining("fusermount").hasMessageContaining("fuse3").hasMessageContaining("coffer serve");
    }

    @FunctionalInterface
    private interface ThrowingWrite {
        void run() throws IOException;
    }
}
