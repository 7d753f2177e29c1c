package dev.coffer.fuse;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;

/**
 * The names the kernel was lately given an entry for, by requests of its own (LOOKUP, CREATE,
 * MKDIR, MKNOD, SYMLINK, the target of RENAME): a READDIRPLUS need not look them up again, since
 * the kernel still holds those entries and their attributes (valid for the mount's cache timeout
 * from the reply). Without this, a folder listed again soon after it was written (a file manager's
 * refresh; fsbench's 2,000 files with {@code ls -l} every 100) paid a lookup per entry for nothing:
 * 17-22% slower than without READDIRPLUS.
 *
 * <p>Any FORGET ends that for every name noted before it, since the kernel may have let go of it.
 * Direct-mapped and bounded ({@value #SLOTS} slots of immutable records, so concurrent workers
 * never see half a slot): a name pushed out, or noted for a request that then failed, only costs or
 * skips a lookup. Skipping one is always correct: the entry then goes without attributes, as
 * READDIR gives it (as fresh as READDIR: attributes changed behind the kernel's back within the
 * window are not refreshed by the listing), and the kernel looks it up itself if its entry has gone.
 */
final class RecentEntries {
    static final int SLOTS = 8192;
    static final int FUSE_LOOKUP = 1;
    static final int FUSE_SYMLINK = 6;
    static final int FUSE_MKNOD = 8;
    static final int FUSE_MKDIR = 9;
    static final int FUSE_RENAME = 12;
    static final int FUSE_CREATE = 35;
    private static final int IN_HEADER = 40;

    static final int FUSE_FORGET = 2;
    static final int FUSE_BATCH_FORGET = 42;

    private record Entry(long parent, byte[] name, long noted, long epoch) {}

    private final Entry[] slots = new Entry[SLOTS];
    private final long freshNanos;
    /**
     * Moves on at every FORGET: the kernel let go of some entry (an eviction, dropped caches), and
     * which one it held by name is not known here, so none noted before counts as held any more.
     */
    private final AtomicLong epoch = new AtomicLong();

    /** @param freshNanos how long after its request an entry counts as held by the kernel (0: none ever does) */
    RecentEntries(long freshNanos) {
        this.freshNanos = freshNanos;
    }

    /** Notes the entry that the request of {@code length} bytes in {@code request} gives the kernel, if any. */
    void note(Pointer request, int length) {
        if (length < IN_HEADER + 2) {
            return;
        }
        int opcode = request.getInt(4);
        if (opcode == FUSE_FORGET || opcode == FUSE_BATCH_FORGET) {
            epoch.incrementAndGet();
            return;
        }
        if (opcode != FUSE_LOOKUP && opcode != FUSE_CREATE && opcode != FUSE_MKDIR && opcode != FUSE_SYMLINK
                && opcode != FUSE_MKNOD && opcode != FUSE_RENAME) {
            return; // the common case, at the cost of a comparison
        }
        long parent = request.getLong(16);
        int nameAt;
        switch (opcode) {
            case FUSE_LOOKUP, FUSE_SYMLINK -> nameAt = IN_HEADER; // the name first (SYMLINK: then the target)
            case FUSE_MKDIR -> nameAt = IN_HEADER + 8; // fuse_mkdir_in: mode, umask
            case FUSE_MKNOD, FUSE_CREATE -> nameAt = IN_HEADER + 16; // fuse_mknod_in, fuse_create_in
            case FUSE_RENAME -> {
                parent = request.getLong(IN_HEADER); // fuse_rename_in.newdir; the old name, then the new one
                int old = nulAt(request, IN_HEADER + 8, length);
                if (old < 0) {
                    return;
                }
                nameAt = old + 1;
            }
            default -> {
                return;
            }
        }
        int end = nulAt(request, nameAt, length);
        if (end <= nameAt) {
            return;
        }
        byte[] name = new byte[end - nameAt];
        request.get(nameAt, name, 0, name.length);
        note(parent, name, 0, name.length);
    }

    /** Notes that the kernel is given {@code name} (bytes {@code at..at+length} of {@code b}) in {@code parent} now. */
    void note(long parent, byte[] b, int at, int length) {
        byte[] name = at == 0 && length == b.length ? b : Arrays.copyOfRange(b, at, at + length);
        slots[slot(parent, name, 0, name.length)] = new Entry(parent, name, System.nanoTime(), epoch.get());
    }

    /** True if the kernel was given {@code name} (bytes {@code at..at+length} of {@code b}) in {@code parent} lately. */
    boolean fresh(long parent, byte[] b, int at, int length) {
        Entry e = slots[slot(parent, b, at, length)];
        return e != null && e.parent == parent && e.epoch == epoch.get() && System.nanoTime() - e.noted < freshNanos
                && Arrays.equals(e.name, 0, e.name.length, b, at, at + length);
    }

    private static int nulAt(Pointer p, int from, int length) {
        for (int i = from; i < length; i++) {
            if (p.getByte(i) == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int slot(long parent, byte[] b, int at, int length) {
        int h = Long.hashCode(parent * 0x9E3779B97F4A7C15L);
        for (int i = at; i < at + length; i++) {
            h = 31 * h + b[i];
        }
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
