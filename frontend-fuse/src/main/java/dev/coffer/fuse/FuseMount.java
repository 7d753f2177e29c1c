package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import jnr.ffi.Pointer;
import jnr.ffi.Struct;
import jnr.ffi.byref.IntByReference;
import jnr.ffi.byref.PointerByReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One FUSE mount of a {@link Path}, from mount to unmount: checks that FUSE is there, prepares the
 * mount point ({@link MountPoint}), mounts with libfuse 2, serves requests on a {@link SessionLoop},
 * and after the session ends (unmounted by {@link #unmount} or by anybody) tears libfuse down,
 * closes every handle and removes a mount point folder that it created.
 *
 * <p>Not responsible for the tree it serves (the caller owns it and closes it after this mount has
 * ended) or for signals (the caller decides when to unmount).
 */
public final class FuseMount implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FuseMount.class);
    private static final long INIT_TIMEOUT_SECONDS = 30;
    private static final long END_TIMEOUT_SECONDS = 30;
    private static final long FORCE_GRACE_MILLIS = 1_000;
    private static final long DETACH_POLL_MILLIS = 1_000;
    /** At exit, how long a busy mount waits for its owner's hook to ask for the unmount before it is detached. */
    private static final long OWNER_WAIT_MILLIS = 3_000;
    /** {@link #OWNER_WAIT_MILLIS}, shortened by a test that has no owner to wait for. */
    private volatile long ownerWaitMillis = OWNER_WAIT_MILLIS;

    private final NativeFuse natives;
    private final FuseAdapter adapter;
    private final MountPoint mountPoint;
    private final Fusermount fusermount;
    private final Pointer fuse;
    private final Pointer mountPointString;
    private final SessionLoop loop;
    private final boolean readOnly;
    private final ExitGuard exitGuard;
    /** Held while unmounting: the owner's hook and the {@link ExitGuard}'s may run at the same moment. */
    private final Object unmounting = new Object();
    /** Set once the owner asked for an unmount: the exit guard then leaves it to the owner. */
    private volatile boolean ownerUnmounts;
    /** Set before this mount unmounts itself (asked by the owner or by the exit guard): no detach by somebody else. */
    private volatile boolean unmountedHere;
    /** Looks the detach watch has taken at the mount table (tests wait for one instead of sleeping). */
    private final java.util.concurrent.atomic.AtomicLong detachChecks = new java.util.concurrent.atomic.AtomicLong();

    private FuseMount(NativeFuse natives, FuseAdapter adapter, MountPoint mountPoint, Pointer fuse, Pointer mountPointString,
            MountOptions options, ExitGuard exitGuard) {
        this.natives = natives;
        this.exitGuard = exitGuard;
        this.adapter = adapter;
        this.mountPoint = mountPoint;
        this.fusermount = new Fusermount(natives.fusermount);
        this.fuse = fuse;
        this.mountPointString = mountPointString;
        this.readOnly = options.readOnly();
        this.loop = new SessionLoop(natives, natives.fuse.fuse_get_session(fuse), options.maxWorkers(),
                options.readdirPlusPossible(), options.heldEntryNanos(), adapter::requestStarts, this::teardown);
    }

    /**
     * Checks that FUSE can be used on this machine (device, libfuse 2, fusermount) without mounting
     * anything, so that a caller can say what to install before asking for a passphrase.
     */
    public static void checkAvailable() throws FuseUnavailableException {
        NativeFuse.load();
    }

    /** Mounts {@code root} at {@code mountPoint}; returns once the kernel has started the session. */
    public static FuseMount mount(Path root, Path mountPoint, MountOptions options) throws IOException {
        return mount(root, mountPoint, options, (r, uid, gid) -> new FuseAdapter(r, uid, gid, options.names()));
    }

    /**
     * Mounts with an adapter made by {@code adapters} from the root and the user and group to report
     * (tests slow an adapter's operation down, or record its threads).
     */
    static FuseMount mount(Path root, Path mountPoint, MountOptions options, AdapterFactory adapters) throws IOException {
        NativeFuse natives = NativeFuse.load();
        KernelNames.requireUtf8(java.nio.charset.Charset.defaultCharset());
        SystemMessages.inEnglish(); // the errno table reads the system's messages
        long uid = Integer.toUnsignedLong(natives.libc.getuid());
        ExitGuard guard = ExitGuard.install(); // before any folder or mount is made
        FuseMount m;
        try {
            m = lockedMount(root, mountPoint, options, adapters, natives, uid, guard);
        } catch (IOException | RuntimeException | Error e) {
            guard.done();
            throw e;
        }
        guard.mounted(m);
        return m;
    }

    private static FuseMount lockedMount(Path root, Path mountPoint, MountOptions options, AdapterFactory adapters,
            NativeFuse natives, long uid, ExitGuard guard) throws IOException {
        // Until the mount is in the mount table, where the next mount's checks see it: two mounts
        // started at once on one empty folder would otherwise both pass the checks and stack.
        MountPointLock named = MountPointLock.acquire(mountPoint, uid);
        try {
            MountPoint mp = MountPoint.prepare(mountPoint, new Fusermount(natives.fusermount));
            if (MountPaths.withRealParent(mp.folder()).equals(MountPaths.withRealParent(mountPoint))) {
                return mount(root, mp, options, adapters, natives, guard);
            }
            // The name was a link to the folder: another mount may have named the folder itself.
            // Locked by that name too, and looked up again in the mount table under the lock.
            MountPointLock target = MountPointLock.acquire(mp.folder(), uid);
            try {
                if (MountTable.isMounted(mp.folder())) {
                    throw new MountPointException("something is already mounted at " + mp.folder()
                            + "; unmount it first or choose another folder");
                }
                return mount(root, mp, options, adapters, natives, guard);
            } finally {
                target.close();
            }
        } finally {
            named.close();
        }
    }

    private static FuseMount mount(Path root, MountPoint mp, MountOptions options, AdapterFactory adapters, NativeFuse natives,
            ExitGuard guard) throws IOException {
        try {
            FuseAdapter adapter = adapters.create(root, Integer.toUnsignedLong(natives.libc.getuid()),
                    Integer.toUnsignedLong(natives.libc.getgid()));
            if (!options.readOnly()) {
                clearUnlinked(adapter);
            }
            adapter.kernelKeepsAttributes(options.kernelCacheSeconds());
            List<String> args = options.arguments(mp.folder().toString());
            PointerByReference mountPointString = new PointerByReference();
            Pointer fuse = natives.fuse.fuse_setup(args.size(), args.toArray(new String[0]), adapter.operations(),
                    Struct.size(adapter.operations()), mountPointString, new IntByReference(), null);
            if (fuse == null) {
                throw new IOException("libfuse could not mount " + mp.folder() + " (its message is above)");
            }
            FuseMount m;
            try {
                m = new FuseMount(natives, adapter, mp, fuse, mountPointString.getValue(), options, guard);
                m.loop.start();
            } catch (RuntimeException | LinkageError e) {
                natives.fuse.fuse_teardown(fuse, mountPointString.getValue()); // never a mount without a server
                throw e;
            }
            m.awaitInit(guard);
            m.watchForDetach();
            return m;
        } catch (IOException | RuntimeException e) {
            mp.removeCreated();
            throw e;
        }
    }

    /** Makes the adapter of a mount. */
    @FunctionalInterface
    interface AdapterFactory {
        FuseAdapter create(Path root, long uid, long gid);
    }

    public Path mountPoint() {
        return mountPoint.folder();
    }

    /** True until the session has ended and everything is torn down. */
    public boolean isMounted() {
        return !loop.ended().isDone();
    }

    /**
     * Unmounts. Without {@code force}, a mount in use throws {@link MountBusyException} and stays
     * mounted; otherwise this waits until the session has ended and everything is torn down. With
     * {@code force}, the mount is detached at once (lazy unmount): nothing new can be opened in it,
     * and the session ends when the programs that still have files open close them (or exit);
     * this waits a moment for that and returns either way ({@link #awaitEnd} waits longer).
     */
    public void unmount(boolean force) throws IOException {
        ownerUnmounts = true;
        synchronized (unmounting) {
            unmountNow(force);
        }
    }

    private void unmountNow(boolean force) throws IOException {
        if (!isMounted()) {
            return;
        }
        if (force) {
            if (MountTable.isMounted(mountPoint.folder())) {
                unmountedHere = true;
                fusermount.unmount(mountPoint.folder(), true);
            }
            // Detached, the folder is a plain local one until the last file closes: a program writing
            // by path would put cleartext on the disk there. A folder Coffer created goes now, so it fails.
            mountPoint.removeCreated();
            awaitEnd(FORCE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            // A program that made it again meanwhile (mkdir -p, a save's temp folder) wrote cleartext
            // there; the owner may end right after this (coffer mount --force), before the session does.
            mountPoint.removeCreated();
            return;
        }
        if (MountTable.isMounted(mountPoint.folder())) {
            unmountedHere = true; // before the mount leaves the table: the session's end may come a moment later
            try {
                fusermount.unmount(mountPoint.folder(), false);
            } catch (IOException | RuntimeException e) {
                unmountedHere = false; // still mounted (busy): a detach by somebody else is reported again
                throw e;
            }
        } else if (!awaitEnd(FORCE_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
            // Detached already (somebody's lazy unmount) while programs still have files open: the
            // session ends when they close them. Busy, as a mount still in the table would be.
            mountPoint.removeCreated();
            throw new MountBusyException(mountPoint.folder());
        }
        if (!awaitEnd(END_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IOException("the FUSE session at " + mountPoint.folder() + " did not end after the unmount");
        }
    }

    /** Blocks until the session has ended (unmounted by anybody), or the timeout passed; true if it ended. */
    public boolean awaitEnd(long timeout, TimeUnit unit) throws IOException {
        try {
            loop.ended().get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the unmount", e);
        } catch (ExecutionException e) {
            throw new IOException("tearing down the mount failed", e.getCause());
        }
    }

    /**
     * At the JVM's exit ({@link ExitGuard}): unmounts, unless the owner asks to. A mount that is not
     * busy is unmounted cleanly at once, as any owner would; a busy one is left to the owner's hook,
     * which runs at the same moment and may wait for the programs or detach it (--force), and is
     * detached if no owner has asked within {@link #OWNER_WAIT_MILLIS}: the JVM is ending, and its
     * files would fail all the same, but the mount would stay behind, stale.
     */
    void unmountAtExit() {
        long deadline = System.nanoTime() + ownerWaitMillis * 1_000_000;
        while (isMounted() && !ownerUnmounts) {
            synchronized (unmounting) {
                if (ownerUnmounts) {
                    return;
                }
                try {
                    unmountNow(System.nanoTime() > deadline);
                    return;
                } catch (MountBusyException e) {
                    // the owner may still ask; detached once the deadline has passed
                } catch (IOException | RuntimeException e) {
                    LOG.warn("unmounting {} at exit failed: {}", mountPoint.folder(), e.getMessage());
                    return;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Unmounts: cleanly if possible, otherwise forced (a mount must never stay visible after its owner is done). */
    @Override
    public void close() throws IOException {
        try {
            unmount(false);
        } catch (MountBusyException e) {
            unmount(true);
        }
    }

    /** Worker threads the session has started (never retired). */
    int workersStarted() {
        return loop.workersStarted();
    }

    /** Lookups made for READDIRPLUS replies so far (tests). */
    long readdirPlusLookups() {
        return loop.readdirPlusLookups();
    }

    /** READDIRPLUS requests answered so far (tests). */
    long readdirPlusAnswered() {
        return loop.readdirPlusAnswered();
    }

    /** Shortens the wait at exit for an owner's unmount (tests with no owner). */
    void ownerWaitMillis(long millis) {
        ownerWaitMillis = millis;
    }

    /** Looks the detach watch has taken so far (tests). */
    long detachChecks() {
        return detachChecks.get();
    }

    FuseAdapter adapter() {
        return adapter;
    }

    /**
     * Waits for the kernel's INIT, or for the JVM to start exiting: the exit guard waits for this
     * call, and a mount whose INIT is still unanswered (nothing can have used it: the kernel holds
     * every request until then) is detached at once instead of holding the exit up to 30 s.
     */
    private void awaitInit(ExitGuard guard) throws IOException {
        try {
            CompletableFuture.anyOf(adapter.initialised(), guard.exiting()).get(INIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!adapter.initialised().isDone()) {
                fusermount.unmount(mountPoint.folder(), true);
                throw new IOException("the JVM is exiting: the mount at " + mountPoint.folder()
                        + ", not yet started, is undone");
            }
        } catch (InterruptedException e) {
            // The kernel's mount is made and the mount call fails: nobody would own (or unmount) it.
            IOException failure = new IOException("interrupted while mounting", e);
            try {
                fusermount.unmount(mountPoint.folder(), true);
            } catch (IOException | RuntimeException notUndone) {
                failure.addSuppressed(notUndone);
            } finally {
                Thread.currentThread().interrupt();
            }
            throw failure;
        } catch (ExecutionException | TimeoutException e) {
            fusermount.unmount(mountPoint.folder(), true);
            throw new IOException("the kernel did not start the FUSE session at " + mountPoint.folder(), e);
        }
    }

    private static void clearUnlinked(FuseAdapter adapter) {
        try {
            adapter.clearUnlinked();
        } catch (IOException | RuntimeException e) { // a damaged entry: it stays, hidden from listings
            LOG.warn("could not clear the folder of files kept after an unlink or a failed rename ({})", e.getClass().getName());
        }
    }

    /**
     * Watches (every second, while the session lasts) for the mount to leave the mount table while
     * the session goes on: somebody's lazy unmount ({@code fusermount -u -z}) with files still open.
     * The mount point is then a plain local folder until they close them, and a program writing
     * there by path would put cleartext on the disk: a folder Coffer created goes at once, so it
     * fails instead (if something was written there already, the removal warns).
     */
    private void watchForDetach() {
        Thread watcher = new Thread(() -> {
            while (isMounted()) {
                try {
                    if (awaitEnd(DETACH_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                    // This mount's own unmount (the owner's, or the exit guard's) is no detach by somebody
                    // else (its flag is set before it unmounts, so it is seen once the mount table shows it).
                    boolean detachedElsewhere = !MountTable.isMounted(mountPoint.folder()) && isMounted() && !unmountedHere;
                    detachChecks.incrementAndGet();
                    if (detachedElsewhere) {
                        LOG.warn("{} was unmounted from elsewhere while programs still have files open in it; "
                                + "the vault stays unlocked until they close them", mountPoint.folder());
                        mountPoint.removeCreated();
                        return;
                    }
                } catch (IOException | RuntimeException e) {
                    return; // interrupted or ending: the teardown removes the folder as always
                }
            }
        }, "coffer-fuse-detach-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Runs once, on the last worker thread out of the loop. */
    private void teardown() {
        try {
            natives.fuse.fuse_teardown(fuse, mountPointString);
        } finally {
            try {
                adapter.closeHandles();
            } catch (IOException e) {
                LOG.warn("closing files left open at unmount failed: {}", e.getClass().getName());
            }
            if (!readOnly) {
                clearUnlinked(adapter);
            }
            mountPoint.removeCreated();
            exitGuard.done();
            if (loop.error() != 0) {
                LOG.warn("the FUSE session ended with error {}", -loop.error());
            }
        }
    }
}
