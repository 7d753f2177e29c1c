package dev.coffer.core.nio;

import dev.coffer.core.content.ContentKeys;
import dev.coffer.core.content.OpenFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry of open files, keyed by ciphertext payload path and by file key (inode): one
 * {@link OpenFile} per file, shared by all its channels and closed with the last one. Follows renames
 * so that later opens of the new path find the same object. Thread-safe (one monitor; each call holds it
 * only briefly: what waits for a file's writes, a join's header check and truncate, runs outside it).
 *
 * <p>A sync client may also rename an open ciphertext file (a rename on another device, or its own
 * {@code X (conflicted copy).c9r}). An open of the new name finds no open file at its path, but the
 * file key its open reads anyway finds the open file of the same inode, which it joins (re-indexed
 * under the new path): two open files on one inode, each with its own size, last unit and header,
 * would overwrite each other's units and tags. A live handle's inode cannot be reused: its channel
 * holds it. An open that would join an open file first checks that the ciphertext still starts with
 * its header ({@link OpenFile#holdsStoredHeader}): one rewritten in place (same inode) gets an open
 * file of its own.
 *
 * <p>A sync client may replace or delete a ciphertext file while it is open here. Each open file
 * remembers the identity of the ciphertext file it has ({@link BasicFileAttributes#fileKey()}, the
 * inode on Linux and macOS); a later open of the path joins it only if the path still holds that file,
 * and a stat reports its size only then. Otherwise the path gets an open file of its own, as after a
 * delete: the channels still open keep the old file (POSIX), and what is written through the new one
 * lands in the file the path now names instead of an orphaned one. Stores without file keys (Windows)
 * cannot tell and join as before.
 *
 * <p>What a program writes to such an orphaned file would be lost with its last close (the old inode
 * has no name any more). So the last close of an open file that was changed since it was opened, and
 * whose path no longer holds its file, first copies its content to a conflict name ({@link Rescue});
 * unless this file system deleted or replaced it itself ({@link #deleted}): then, as in POSIX, the
 * writes are rightly gone. Decided under the monitor (a stat, as Coffer's own renames hold it too),
 * copied outside it, before the orphan is closed; {@link #closeAll} waits for copies under way.
 */
final class OpenFiles {
    private static final Logger LOG = LoggerFactory.getLogger(OpenFiles.class);
    private final ContentKeys keys;
    private final Map<Path, Handle> byPath = new HashMap<>();
    /** The same handles by file key (those with one), also while a foreign rename or delete left their path. */
    private final Map<Object, Handle> byKey = new HashMap<>();
    private final List<CleartextFileChannel> channels = new ArrayList<>();
    /** What {@link #beforeChange} noted for the change {@link #exclusively} runs (empty Optional: nothing there). */
    private final Map<Path, java.util.Optional<Object>> keysBefore = new HashMap<>();
    /** Set by {@link #closeAll}: from then on nothing opens or registers, so no channel outlives the keys. */
    private boolean closed;
    /** Copies an orphaned changed file at its last close; null on a read-only file system (nothing written). */
    private Rescue rescue;
    /** Rescues under way outside the monitor: {@link #closeAll} waits for them before the keys go. */
    private int rescuesRunning;
    /**
     * True on a thread while it copies an orphan: its own open passes a closing file system's refusal
     * (the copy is part of the close), its copy's channel is left to it ({@link #register}), and
     * orphans its copy's open unpinned wait until the copy is done ({@link #rescueUnpinnedOrphans}).
     */
    private static final ThreadLocal<Boolean> RESCUING = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /**
     * Orphans whose last reference was a join's pin, dropped under the monitor (counted in
     * {@link #rescuesRunning}): the open that dropped it copies and closes them once it left the
     * monitor, or {@link #closeAll} does.
     */
    private final List<Handle> unpinnedOrphans = new ArrayList<>();

    /** Told about each rescue's outcome, on the thread that made it. */
    private final ConflictCopyListeners told;

    OpenFiles(ContentKeys keys, ConflictCopyListeners told) {
        this.keys = keys;
        this.told = told;
    }

    /** Copies the content of an open file replaced or deleted underneath to a conflict name (the file system's own API). */
    @FunctionalInterface
    interface Rescue {
        /**
         * Returns the copy's cleartext path; throws {@link IncompleteCopyException} if it failed but
         * kept part of the content, another exception if nothing was kept.
         */
        String copy(OpenFile orphan) throws IOException;
    }

    /** Sets how orphaned changed files are rescued (a writable file system does, once made). */
    synchronized void rescueWith(Rescue rescue) {
        this.rescue = rescue;
    }

    /** A ref-counted open file. */
    static final class Handle {
        final OpenFile file;
        /** The identity of the ciphertext file its channel has; null where the store gives none. */
        final Object fileKey;
        Path ciphertextPath;
        int refs;
        /** False while its ciphertext channel is read-only (write access was denied at the first open). */
        boolean writable;
        /** Set when this file system deleted or replaced the file itself: its writes are rightly discarded (POSIX). */
        boolean deletedHere;
        /** Set once its last close (or the file system's) decided whether to rescue it: decided once. */
        boolean settled;
        /**
         * Set when that decision was to rescue it: then only the one that decided (and copies it)
         * closes it, after the copy; a last reference dropped meanwhile, or the file system's close,
         * must not close it under the copy.
         */
        boolean rescuing;

        Handle(OpenFile file, Object fileKey, Path ciphertextPath) {
            this.file = file;
            this.fileKey = fileKey;
            this.ciphertextPath = ciphertextPath;
        }

        /** False if {@code currentKey} (the path's file now; null: none there) shows another file than this one's. */
        boolean holds(Object currentKey) {
            return fileKey == null || fileKey.equals(currentKey);
        }
    }

    /**
     * Opens (or joins) the file at {@code ciphertextPath}; {@code options} apply to the ciphertext channel
     * when first opened. {@code attrs} go to the ciphertext channel's open (with CREATE_NEW: the new
     * file's permissions).
     *
     * <p>A join first checks the open file's header ({@link OpenFile#holdsStoredHeader}) outside this
     * registry's monitor: the check waits for the file's writes to drain (a long write, the write
     * behind, queued appends), and every open, close and stat of every other file needs the monitor.
     * The candidate is pinned meanwhile (a reference, so its last channel cannot close it), and the join
     * is finished only if it is still registered afterwards; else the open starts over.
     */
    Handle open(Path ciphertextPath, Set<? extends OpenOption> options, String cleartextPath, boolean truncate,
                FileAttribute<?>... attrs) throws IOException {
        try {
            return openOrJoin(ciphertextPath, options, cleartextPath, truncate, attrs);
        } finally {
            rescueUnpinnedOrphans(); // a pin this open dropped may have been an orphan's last reference
        }
    }

    private Handle openOrJoin(Path ciphertextPath, Set<? extends OpenOption> options, String cleartextPath, boolean truncate,
                              FileAttribute<?>... attrs) throws IOException {
        while (true) {
            Candidate c = openOrPin(ciphertextPath, options, cleartextPath, truncate, attrs);
            if (c.opened != null) {
                return c.opened;
            }
            boolean holds;
            try {
                holds = c.pinned.file.holdsStoredHeader();
            } catch (IOException | RuntimeException e) {
                if (abandon(c, e)) {
                    throw closedAfter(e);
                }
                throw e;
            }
            Handle joined = finishJoin(c, holds, ciphertextPath, options, cleartextPath);
            if (joined == null) {
                continue; // rewritten in place, or moved, replaced or deleted meanwhile: look again
            }
            if (truncate) {
                try {
                    joined.file.setSize(0); // waits for the file's writes: also outside the monitor
                } catch (IOException | RuntimeException e) {
                    if (abandon(new Candidate(null, joined, null), e)) {
                        throw closedAfter(e);
                    }
                    throw e;
                }
            }
            return joined;
        }
    }

    /**
     * An open file made by {@link #openOrPin} ({@code opened}, counted), or one to join ({@code pinned},
     * counted as the pin) with the ciphertext channel the open made to find it by file key ({@code ch};
     * null if it was found by path).
     */
    private record Candidate(Handle opened, Handle pinned, FileChannel ch) {
    }

    /**
     * Under the monitor: the open file at {@code ciphertextPath} (by path, else by the file key of a
     * channel opened there), pinned; or, if there is none, a new open file, registered.
     */
    private synchronized Candidate openOrPin(Path ciphertextPath, Set<? extends OpenOption> options, String cleartextPath,
                                             boolean truncate, FileAttribute<?>... attrs) throws IOException {
        if (closed && !RESCUING.get()) {
            throw new ClosedFileSystemException();
        }
        Handle h = byPath.get(ciphertextPath);
        if (h != null) {
            h.refs++;
            return new Candidate(null, h, null);
        }
        FileChannel ch = FileChannel.open(ciphertextPath, options, attrs);
        Object fileKey = keyOfOpened(ch, ciphertextPath); // before the file takes a keyed cryptor
        Handle renamed = fileKey == null ? null : byKey.get(fileKey);
        if (renamed != null) {
            renamed.refs++;
            return new Candidate(null, renamed, ch);
        }
        // A file this open made is empty: truncating it would cost three system calls for nothing.
        boolean made = options.contains(StandardOpenOption.CREATE_NEW);
        OpenFile file = null;
        try {
            file = new OpenFile(ch, keys, cleartextPath, truncate && !made, freeSpaceOf(ciphertextPath));
            h = new Handle(file, fileKey, ciphertextPath);
            h.writable = options.contains(StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            try {
                if (file != null) {
                    file.close(); // gives its cryptor back, destroyed
                } else {
                    ch.close();
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        byPath.put(ciphertextPath, h);
        if (fileKey != null) {
            byKey.put(fileKey, h);
        }
        h.refs++;
        return new Candidate(h, null, null);
    }

    /**
     * Under the monitor again, after the header check ({@code holds}): joins the pinned candidate if it
     * still holds its header and is still the open file of the path (whose file key is read here, under
     * the monitor Coffer's own renames hold too ({@link #exclusively}): only a foreign replacement in
     * the microseconds until the open returns goes unseen) or of the channel's file key. Else unpins it
     * and returns null: the open starts over.
     */
    private synchronized Handle finishJoin(Candidate c, boolean holds, Path ciphertextPath, Set<? extends OpenOption> options,
                                           String cleartextPath) throws IOException {
        Handle h = c.pinned;
        boolean joins;
        try {
            // closeAll closed it, or will: no channel outlives the close. A rescue's copy is part of the
            // close: closeAll closes the files only once it is done.
            if (closed && !RESCUING.get()) {
                throw new ClosedFileSystemException();
            }
            if (!holds) {
                forget(h); // rewritten in place underneath: a new open file reads the new header
            }
            joins = holds && stillRegistered(c, ciphertextPath);
        } catch (IOException | RuntimeException e) {
            if (abandonLocked(c, e)) {
                throw closedAfter(e);
            }
            throw e;
        }
        if (!joins) {
            try {
                unpinLocked(h);
            } finally {
                if (c.ch != null) {
                    c.ch.close();
                }
            }
            return null;
        }
        try {
            if (c.ch != null) {
                joinRenamed(h, c.ch, ciphertextPath, options, cleartextPath);
            } else if (!h.writable && options.contains(StandardOpenOption.WRITE)) {
                // A writer joins a file first opened read-only: it may be writable now (chmod). If it is
                // not, this open throws AccessDeniedException, never a write NonWritableChannelException.
                h.file.useWritable(FileChannel.open(ciphertextPath, StandardOpenOption.READ, StandardOpenOption.WRITE));
                h.writable = true;
            }
            return h; // the pin is this open's reference
        } catch (IOException | RuntimeException e) {
            abandonLocked(c, e);
            throw e;
        }
    }

    /**
     * Whether the pinned candidate is still the open file of the channel's file key, or of the path
     * (which must still name its file: else it is taken off the path, whose channels keep their file).
     */
    private boolean stillRegistered(Candidate c, Path ciphertextPath) throws IOException {
        Handle h = c.pinned;
        if (c.ch != null) {
            return byKey.get(h.fileKey) == h;
        }
        if (byPath.get(ciphertextPath) != h) {
            return false;
        }
        if (h.fileKey != null && !h.holds(fileKeyOrNull(ciphertextPath))) {
            byPath.remove(ciphertextPath); // replaced or deleted underneath
            return false;
        }
        return true;
    }

    /**
     * Drops the pin (at none left: forgets and closes the open file) and the channel of {@code c} after
     * {@code e}, whose suppressed failures they add; true if the file system is closing, whose
     * {@link ClosedFileSystemException} the open then throws (its close may have closed the file under
     * the check).
     */
    private synchronized boolean abandon(Candidate c, Throwable e) {
        return abandonLocked(c, e);
    }

    private boolean abandonLocked(Candidate c, Throwable e) {
        try {
            unpinLocked(c.pinned);
        } catch (IOException | RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        }
        if (c.ch != null) {
            try {
                c.ch.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
        return closed;
    }

    private void unpinLocked(Handle h) throws IOException {
        if (--h.refs == 0) {
            forget(h);
            if (startRescue(h)) {
                unpinnedOrphans.add(h); // copied outside the monitor (rescueUnpinnedOrphans), then closed
                return;
            }
            closeUnlessRescued(h);
        }
    }

    /** Closes {@code h} unless a rescue is copying it: then the rescue closes it once the copy is done. */
    private static void closeUnlessRescued(Handle h) throws IOException {
        if (!h.rescuing) {
            h.file.close();
        }
    }

    /**
     * Copies and closes the orphans whose last reference a dropped pin was (outside the monitor). A
     * failed close is logged: the open that dropped the pin has its own outcome to report. Not on a
     * thread that is copying an orphan already (its copy's open dropped the pin): that rescue drains
     * them once its own copy is done, one after the other, so rescues never nest.
     */
    private void rescueUnpinnedOrphans() {
        if (RESCUING.get()) {
            return;
        }
        while (true) {
            Handle h;
            synchronized (this) {
                if (unpinnedOrphans.isEmpty()) {
                    return;
                }
                h = unpinnedOrphans.remove(unpinnedOrphans.size() - 1);
            }
            try {
                rescue(h);
            } finally {
                try {
                    h.file.close();
                } catch (IOException e) {
                    LOG.warn("an open file replaced or deleted underneath failed to close ({})", e.getClass().getName());
                } finally {
                    rescueDone();
                }
            }
        }
    }

    /** What an open that failed with {@code e} while the file system was closing throws: the close. */
    private static ClosedFileSystemException closedAfter(Exception e) {
        if (e instanceof ClosedFileSystemException closing) {
            return closing;
        }
        ClosedFileSystemException closing = new ClosedFileSystemException();
        closing.addSuppressed(e);
        return closing;
    }

    /**
     * Takes {@code h} out of the registry: its last channel closed, or the file was rewritten in place
     * (same inode, new header) while channels still use it. Later opens then get an open file of their
     * own for the new content; the old one's channels keep the stale one, which refuses their changes
     * (they would destroy units of the new content).
     */
    private void forget(Handle h) {
        if (byPath.get(h.ciphertextPath) == h) {
            byPath.remove(h.ciphertextPath);
        }
        if (h.fileKey != null && byKey.get(h.fileKey) == h) {
            byKey.remove(h.fileKey);
        }
    }

    /** The file key of what {@code ch} was just opened on (the stat every new open does); closes {@code ch} if it fails. */
    private static Object keyOfOpened(FileChannel ch, Path ciphertextPath) throws IOException {
        try {
            return fileKeyOrNull(ciphertextPath);
        } catch (IOException | RuntimeException e) {
            try {
                ch.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Joins {@code h}, the open file of the inode a sync client renamed to {@code ciphertextPath}
     * ({@code ch}, just opened there, holds it too): later opens of the new path find it at once, the
     * old path finds it no more (an open there, if a hard link still names it, joins it the same way).
     * {@code ch} becomes its writable channel if it has none yet, else is closed.
     */
    private void joinRenamed(Handle h, FileChannel ch, Path ciphertextPath, Set<? extends OpenOption> options,
                             String cleartextPath) throws IOException {
        if (byPath.get(h.ciphertextPath) == h) {
            byPath.remove(h.ciphertextPath);
        }
        h.ciphertextPath = ciphertextPath;
        byPath.put(ciphertextPath, h);
        h.file.renamed(cleartextPath);
        if (!h.writable && options.contains(StandardOpenOption.WRITE)) {
            h.file.useWritable(ch); // closes ch if the file is closed
            h.writable = true;
        } else {
            ch.close();
        }
    }

    /**
     * How the open file asks its store for free space: one {@code statvfs} (java.io) of its storage
     * folder, which stays where it is when the file or its folder is renamed, on the default file
     * system; else that folder's file store, found once when first asked (under the file's lock).
     */
    private static OpenFile.FreeSpace freeSpaceOf(Path ciphertextPath) {
        Path folder = ciphertextPath.toAbsolutePath().getParent();
        if (folder.getFileSystem() == FileSystems.getDefault()) {
            java.io.File file = folder.toFile();
            return file::getUsableSpace; // 0 if it cannot say: then nothing is queued
        }
        FileStore[] store = new FileStore[1];
        return () -> {
            if (store[0] == null) {
                store[0] = Files.getFileStore(folder);
            }
            return store[0].getUsableSpace();
        };
    }

    /** The file key of what {@code ciphertextPath} names now, or null if nothing (or the store gives none). */
    private static Object fileKeyOrNull(Path ciphertextPath) throws IOException {
        try {
            return Files.readAttributes(ciphertextPath, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Adds an open channel, so {@link #closeAll} closes it; returns false (not added) once the file
     * system is closing: its opener must release its handle and fail.
     */
    synchronized boolean register(CleartextFileChannel channel) {
        if (RESCUING.get()) {
            // A rescue's copy: closed by the rescue, which closeAll waits for. closeAll must not close
            // it first (the program's bytes would be lost with a half-written copy).
            return true;
        }
        if (closed) {
            return false;
        }
        channels.add(channel);
        return true;
    }

    /**
     * Called when a channel closes: the last one closes the file, after rescuing its content if it is
     * an orphan (see the class comment). The rescue runs outside the monitor: it reads the whole file
     * and writes a new one through the file system, whose opens and closes need the monitor.
     */
    void release(Handle h, CleartextFileChannel channel) throws IOException {
        synchronized (this) {
            channels.remove(channel);
            if (--h.refs > 0) {
                return;
            }
            forget(h);
            if (!startRescue(h)) {
                closeUnlessRescued(h);
                return;
            }
        }
        try {
            rescue(h);
        } finally {
            try {
                h.file.close(); // forgotten, settled: nothing else reaches it any more
            } finally {
                rescueDone();
                rescueUnpinnedOrphans(); // those whose last pin the copy's open dropped
            }
        }
    }

    /**
     * Under the monitor, once for each open file: whether it is to be rescued (then counted as under
     * way): changed since opened, not deleted or replaced by this file system, and its ciphertext
     * path no longer holding it (missing, or another file). A stat that fails counts as not holding:
     * a needless copy costs space, a missed one the program's writes.
     */
    private boolean startRescue(Handle h) {
        if (h.settled) {
            return false;
        }
        h.settled = true;
        // Also on a rescuing thread: the copy's open may drop the last pin of another orphan (a stale
        // registration of the conflict name), queued then; a copy's own close is rescued only if it
        // too was replaced underneath. Each open file is settled once and rescues do not nest
        // (rescueUnpinnedOrphans), so this neither recurses nor goes on forever.
        if (rescue == null || h.deletedHere || !h.file.changed()) {
            return false;
        }
        boolean orphaned;
        try {
            BasicFileAttributes now = Files.readAttributes(h.ciphertextPath, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            orphaned = h.fileKey != null && !h.fileKey.equals(now.fileKey()); // without file keys only a delete shows
        } catch (IOException | RuntimeException e) {
            orphaned = true;
        }
        if (orphaned) {
            rescuesRunning++;
            h.rescuing = true;
        }
        return orphaned;
    }

    /**
     * Copies {@code h}'s content to a conflict name (counted by {@link #startRescue}); a failure is
     * logged, never thrown. Then tells the file system's owner ({@link #told}, which never throws)
     * where the copy is, or that none was kept: the log has no names, the person needs them.
     */
    private void rescue(Handle h) {
        String original = h.file.cleartextPath(); // before the copy: the name the person knew it by
        ConflictCopy outcome;
        boolean outer = RESCUING.get(); // restored after: a rescue inside another must not end the outer one's
        RESCUING.set(Boolean.TRUE);
        // An interrupted closing thread (a shutdown) would fail the copy's channel at its first write.
        boolean interrupted = Thread.interrupted();
        try {
            outcome = ConflictCopy.kept(original, rescue.copy(h.file));
            warn("an open file was replaced or deleted underneath by another program;"
                    + " its last content was kept as a conflict copy");
        } catch (IncompleteCopyException e) {
            outcome = ConflictCopy.keptInPart(original, e.copy());
            warn("an open file was replaced or deleted underneath by another program, and only part of its last"
                    + " content could be kept as a conflict copy ({})", typeOf(e.getCause()));
        } catch (IOException | RuntimeException e) {
            outcome = ConflictCopy.notKept(original);
            // The type only: a message may hold a cleartext name.
            warn("an open file was replaced or deleted underneath by another program, and its last content"
                    + " could not be kept as a conflict copy ({})", e.getClass().getName());
        } finally {
            RESCUING.set(outer);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        told.tell(outcome); // outside the rescue's scope: a listener is not part of the copy
    }

    /** A rescue's WARN, marked {@link ConflictCopy#TOLD_BY_NAME} if a listener will name the files. */
    private void warn(String message, Object... args) {
        org.slf4j.spi.LoggingEventBuilder event = LOG.atWarn();
        if (told.any()) {
            event = event.addMarker(org.slf4j.MarkerFactory.getMarker(ConflictCopy.TOLD_BY_NAME));
        }
        event.log(message, args);
    }

    private static String typeOf(Throwable t) {
        return t == null ? "unknown" : t.getClass().getName();
    }

    /** After a rescued orphan is closed: closeAll may go on. */
    private synchronized void rescueDone() {
        rescuesRunning--;
        notifyAll();
    }

    /** The open file at {@code ciphertextPath}, or null: its size is more current than the ciphertext length. */
    synchronized OpenFile get(Path ciphertextPath) {
        Handle h = byPath.get(ciphertextPath);
        return h == null ? null : h.file;
    }

    /**
     * As {@link #get(Path)}, but null unless the open file is still the one the path names, given the
     * path's file key as a stat just read it ({@code currentKey}); or the open file of that key, which
     * a sync client renamed to the path.
     */
    synchronized OpenFile get(Path ciphertextPath, Object currentKey) {
        Handle h = byPath.get(ciphertextPath);
        if (h != null && h.holds(currentKey)) {
            return h.file;
        }
        Handle renamed = currentKey == null ? null : byKey.get(currentKey);
        return renamed == null ? null : renamed.file;
    }

    /**
     * The open file an open of {@code ciphertextPath} would join: the one at that path, else the one of
     * the file key the path names now (a sync client renamed it there). The key costs a stat, read
     * only when no open file has the path and some open file could live off its path.
     */
    OpenFile find(Path ciphertextPath) throws IOException {
        synchronized (this) {
            Handle h = byPath.get(ciphertextPath);
            if (h != null) {
                return h.file; // if the path was replaced underneath, waiting for this one's writes is merely needless
            }
            if (byKey.isEmpty()) {
                return null;
            }
        }
        return get(ciphertextPath, fileKeyOrNull(ciphertextPath));
    }

    /**
     * Runs {@code change} (a rename and the registry's updates for it) while no open can join or
     * register a file: an open between the rename and the updates would otherwise register a second
     * open file for the same ciphertext file, beside the one the updates move there.
     */
    synchronized void exclusively(IoAction change) throws IOException {
        try {
            change.run();
        } finally {
            keysBefore.clear();
        }
    }

    /**
     * Inside {@link #exclusively}, before its change: notes which file each of {@code paths} holds now
     * (a stat), for those at which an open file is registered (no system call for the others). Then
     * {@link #deleted} and {@link #moved} act on a registered open file only if it is the file the
     * change removed or moved: one whose ciphertext a sync client replaced underneath is an orphan, not
     * what Coffer deleted or moved, and keeps its claim to a conflict copy at its last close.
     */
    synchronized void beforeChange(Path... paths) {
        for (Path p : paths) {
            if (p != null && byPath.containsKey(p) && !keysBefore.containsKey(p)) {
                Object key;
                try {
                    key = fileKeyOrNull(p);
                } catch (IOException | RuntimeException e) {
                    key = null; // unknown: taken for another file, so a copy is made rather than missed
                }
                keysBefore.put(p, java.util.Optional.ofNullable(key));
            }
        }
    }

    /** Whether {@code h}, registered at {@code p}, is the file {@code p} held before the change (true if not noted). */
    private boolean heldBefore(Handle h, Path p) {
        java.util.Optional<Object> before = keysBefore.get(p);
        return before == null || h.fileKey == null || h.fileKey.equals(before.orElse(null));
    }

    /** A change of the store and of this registry, run by {@link #exclusively}. */
    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    /**
     * After a rename of the payload: later opens of {@code to} join the same file. An open file at
     * {@code from} that {@link #beforeChange} saw was not the file there (replaced underneath) only
     * leaves the path: it is not what moved.
     */
    synchronized void moved(Path from, Path to, String newCleartextPath) {
        Handle h = byPath.remove(from);
        if (h != null && heldBefore(h, from)) {
            h.ciphertextPath = to;
            h.file.renamed(newCleartextPath);
            byPath.put(to, h);
        }
    }

    /** After a folder move: open files below it keep their ciphertext path but get new cleartext paths. */
    synchronized void folderMoved(String oldPrefix, String newPrefix) {
        for (Handle h : byPath.values()) {
            String p = h.file.cleartextPath();
            if (p.startsWith(oldPrefix + "/")) {
                h.file.renamed(newPrefix + p.substring(oldPrefix.length()));
            }
        }
    }

    /**
     * After a delete, or a move over the file, by this file system: channels still open keep working
     * (POSIX), new opens get a new file, and what they write is discarded with the last close (no rescue),
     * unless {@link #beforeChange} saw the path hold another file than the open one (replaced underneath
     * by a sync client): that one only leaves the path and keeps its claim to a conflict copy.
     */
    synchronized void deleted(Path ciphertextPath) {
        Handle h = byPath.remove(ciphertextPath);
        if (h != null && heldBefore(h, ciphertextPath)) {
            h.deletedHere = true;
        }
    }

    synchronized boolean isOpen(Path ciphertextPath) {
        return byPath.containsKey(ciphertextPath);
    }

    /** True if no file is open (tests use it to prove a listing opened none). */
    synchronized boolean isEmptyForTests() {
        return byPath.isEmpty() && byKey.isEmpty();
    }

    /**
     * Closes every channel (the file system is closing). An orphan's last close rescues it as any last
     * close does (the keys are destroyed only after this returns); so does the close here of a file that
     * something still pins. Returns once no rescue is under way any more (also one of another thread).
     * A rescue's copy channel is not among the channels closed here ({@link #register}): its rescue
     * closes it, and the files are closed only once the rescues under way are done, as one of them may
     * be a copy's file.
     */
    void closeAll() throws IOException {
        List<CleartextFileChannel> open;
        List<Handle> files;
        synchronized (this) {
            closed = true; // no open or registration after this snapshot
            open = new ArrayList<>(channels);
            java.util.Set<Handle> all = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            all.addAll(byPath.values());
            all.addAll(byKey.values()); // also those a foreign rename or delete took off their path
            files = new ArrayList<>(all);
        }
        IOException first = null;
        for (CleartextFileChannel ch : open) {
            try {
                ch.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        rescueUnpinnedOrphans(); // an open that dropped one may be on its way to do it: whichever comes first
        awaitRescues();
        // A file opened for a channel that was not registered yet (it will fail to) is closed here,
        // so its cryptor is back before the keys are destroyed and no read gets through it. One that
        // a rescue copies (a join's dropped pin queued it) is closed by that rescue, after its copy.
        for (Handle h : files) {
            boolean rescues;
            boolean rescuedElsewhere;
            synchronized (this) {
                rescues = startRescue(h);
                rescuedElsewhere = !rescues && h.rescuing;
            }
            try {
                if (rescues) {
                    try {
                        rescue(h);
                    } finally {
                        try {
                            h.file.close();
                        } finally {
                            rescueDone();
                        }
                    }
                } else if (!rescuedElsewhere) {
                    h.file.close();
                }
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        rescueUnpinnedOrphans();
        awaitRescues();
        if (first != null) {
            throw first;
        }
    }

    /** Waits until no rescue runs: one on another thread still reads its file and the keys. */
    private synchronized void awaitRescues() {
        boolean interrupted = false;
        while (rescuesRunning > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true; // the keys must not go while a rescue uses them
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
