package dev.coffer.fuse;

import jnr.ffi.LastError;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the kernel's READDIRPLUS, which libfuse 2 does not know: a listing that carries each
 * entry's lookup (its node and attributes), so that {@code ls -l}, {@code rm -rf}, {@code find} and
 * a program opening the files it just listed send no LOOKUP per entry, each a round trip between
 * two threads. gocryptfs's FUSE library does the same.
 *
 * <p>How: the INIT reply gets {@code FUSE_DO_READDIRPLUS | FUSE_READDIRPLUS_AUTO} ({@link InitReply},
 * if the kernel offers them; with AUTO the kernel asks for them only where it helps: a folder's first
 * listing, or one whose names are being looked up). A READDIRPLUS request is answered here, on the worker that
 * read it, by having libfuse process two kinds of requests made from it through a {@link
 * ReplyChannel} that keeps the reply instead of sending it: the same request as a READDIR (libfuse's
 * own listing of the open folder, with its offsets), then a LOOKUP of each name that fits in the
 * reply. libfuse counts those lookups as if the kernel had sent them, and the kernel counts each
 * entry of the reply as one lookup and forgets it later with FORGET, as for its own LOOKUPs; a reply
 * the kernel does not take (the connection aborted, the mount going away), or one that could not be
 * built, is followed by a FORGET of each looked-up entry.
 *
 * <p>One request makes a lookup of each name that fits ({@link #LOOKUP_BUDGET}: a page), one after
 * another, while the lister waits without interruption and the folder stays locked for changes: on
 * a local store far quicker than the round trips it saves; on a slow network store the same total
 * time, in steps of a page.
 *
 * <p>Names the kernel was given an entry for lately (by its own requests or an earlier reply here)
 * are not looked up again ({@link RecentEntries}): they go without attributes, as in READDIR.
 *
 * <p>Not responsible for reading requests ({@link SessionLoop}).
 */
final class ReaddirPlus {
    private static final Logger LOG = LoggerFactory.getLogger(ReaddirPlus.class);
    static final int FUSE_LOOKUP = 1;
    static final int FUSE_FORGET = 2;
    static final int FUSE_READDIR = 28;
    static final int FUSE_READDIRPLUS = 44;
    /** sizeof(struct fuse_in_header): len, opcode, unique, nodeid, uid, gid, pid, padding. */
    static final int IN_HEADER = 40;
    /** sizeof(struct fuse_out_header): len, error, unique. */
    static final int OUT_HEADER = 16;
    /** sizeof(struct fuse_read_in), the body of READDIR and READDIRPLUS: fh, offset, size, ... */
    static final int READ_IN = 40;
    /** sizeof(struct fuse_entry_out): nodeid, generation, entry and attr validity, struct fuse_attr. */
    static final int ENTRY_OUT = 128;
    /** offsetof(struct fuse_dirent, name): ino, off, namelen, type. */
    static final int DIRENT_NAME = 24;
    /** offsetof(struct fuse_entry_out, attr.mode). */
    static final int ENTRY_MODE = 40 + 60;
    private static final int IOVEC = 16;
    private static final int EIO = 5;
    private static final int MAX_NAME = 1024;
    /**
     * The most one reply holds: a page, as kernels before 6.16 asked for (some 24 entries), not the
     * up to ~190 of glibc's 32 KiB listing buffer that later kernels ask for: it bounds the batch of
     * lookups the lister and the folder's lock wait for; the rest of a large folder comes in more
     * requests (READDIRPLUS where the kernel thinks it helps, else plain READDIR).
     */
    static final int LOOKUP_BUDGET = 4096;

    private final LibFuseChannels lib;
    private final LibC libc;
    private final Pointer session;
    private final Runnable beforeEachRequest;
    private final Runtime runtime = Runtime.getSystemRuntime();
    private final int fd;
    private final ReplyChannel keep;
    private final ThreadLocal<Scratch> scratch;
    private final Pointer errorReply; // made up front: the EIO of a listing that failed, even for lack of memory
    private final java.util.concurrent.atomic.AtomicLong answered = new java.util.concurrent.atomic.AtomicLong();
    /** Entries the kernel holds already (half the mount's cache timeout after their request): not looked up again. */
    private final RecentEntries recent;
    private final java.util.concurrent.atomic.AtomicLong lookups = new java.util.concurrent.atomic.AtomicLong();

    /** One worker's buffers: the requests made here, the reply kept, the reply built. */
    private static final class Scratch {
        final Pointer request;
        final Pointer kept;
        final Pointer reply;
        final long capacity;
        long keptLength;
        /** Nodes looked up for the reply being built (libfuse counted each once); 0 for entries without one. */
        long[] counted = new long[64];
        /** Where each entry's name is in the listing: offset << 32 | length. */
        long[] names = new long[64];
        int entries;

        Scratch(Runtime runtime, long capacity) {
            this.capacity = capacity;
            request = Memory.allocateDirect(runtime, IN_HEADER + Math.max(READ_IN, MAX_NAME + 1));
            kept = Memory.allocateDirect(runtime, capacity);
            reply = Memory.allocateDirect(runtime, capacity);
        }
    }

    /** @param heldEntryNanos how long an entry the kernel was given counts as still held (0: never) */
    ReaddirPlus(LibFuseChannels lib, LibC libc, Pointer session, Pointer sessionChannel, long bufferSize,
            long heldEntryNanos, Runnable beforeEachRequest) {
        this.recent = new RecentEntries(heldEntryNanos);
        this.lib = lib;
        this.libc = libc;
        this.session = session;
        this.beforeEachRequest = beforeEachRequest;
        this.fd = lib.fuse_chan_fd(sessionChannel);
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(runtime, bufferSize));
        this.errorReply = Memory.allocateDirect(runtime, OUT_HEADER);
        this.keep = new ReplyChannel(lib, fd, bufferSize, this::keepReply);
    }

    /** Notes the entry a request of the kernel's gives it (every request passes here before it is processed). */
    void note(Pointer request, int length) {
        try {
            recent.note(request, length);
        } catch (RuntimeException | Error e) {
            // a name not noted only costs a lookup; the request itself must still be processed
        }
    }

    /** Lookups made for READDIRPLUS replies so far (tests see which names were not looked up again). */
    long lookups() {
        return lookups.get();
    }

    /** READDIRPLUS requests answered so far (tests see that the kernel asks for them). */
    long answered() {
        return answered.get();
    }

    /** Frees the channels. Only once no request is processed any more. */
    void close() {
        keep.close();
    }

    /** The kept channel's send: the reply is copied into this worker's buffer instead of being sent. */
    int keepReply(Pointer ignoredChannel, Pointer iov, long count) {
        Scratch s = scratch.get();
        long at = 0;
        for (int i = 0; i < count; i++) {
            Pointer base = iov.getPointer((long) i * IOVEC);
            long len = iov.getLong((long) i * IOVEC + 8);
            if (at + len > s.capacity) {
                s.keptLength = -1; // cannot happen for READDIR and LOOKUP replies; answered as EIO
                return 0;
            }
            if (len > 0) {
                base.transferTo(0, s.kept, at, len);
            }
            at += len;
        }
        s.keptLength = at;
        return 0;
    }

    /**
     * Answers the READDIRPLUS request of {@code length} bytes in {@code request} (the worker's receive
     * buffer). A failure of this code is answered as EIO: it must not end the worker, and with it the mount.
     */
    void answer(Pointer request, int length) {
        answered.incrementAndGet();
        Scratch s = null;
        try {
            s = scratch.get(); // a worker's first listing allocates its buffers: inside, it may fail too
            s.entries = 0;
            answerOrThrow(s, request, length);
        } catch (RuntimeException | Error e) {
            failed(s, request, e);
        }
    }

    /**
     * A listing that could not be answered: EIO first (the lister and the folder's lock wait for a
     * reply), then the lookups counted for it given back, then the log; each step on its own, as an
     * OutOfMemoryError may come again.
     */
    private void failed(Scratch s, Pointer request, Throwable e) {
        try {
            synchronized (errorReply) {
                errorReply.putInt(0, OUT_HEADER);
                errorReply.putInt(4, -EIO);
                errorReply.putLong(8, request.getLong(8));
                libc.write(fd, errorReply, OUT_HEADER);
            }
        } catch (RuntimeException | Error ignored) {
            // nothing more can be done for this request
        }
        if (s != null) {
            try {
                forget(s, request);
            } catch (RuntimeException | Error ignored) {
                // what stays counted only costs libfuse memory: the kernel holds none of it
            }
        }
        try {
            LOG.warn("could not answer a listing ({}); it failed with EIO", e.getClass().getName());
        } catch (RuntimeException | Error ignored) {
            // the log is all that is lost
        }
    }

    private void answerOrThrow(Scratch s, Pointer request, int length) {
        long unique = request.getLong(8);
        if (length < IN_HEADER + READ_IN) {
            replyError(s, unique, EIO);
            return;
        }
        long folder = request.getLong(16);
        long size = Math.min(Math.min(Integer.toUnsignedLong(request.getInt(IN_HEADER + 16)), s.capacity - OUT_HEADER),
                LOOKUP_BUDGET);
        request.transferTo(0, s.request, 0, IN_HEADER + READ_IN);
        s.request.putInt(0, IN_HEADER + READ_IN);
        s.request.putInt(4, FUSE_READDIR);
        s.request.putInt(IN_HEADER + 16, (int) size); // no more than the buffer that keeps the reply
        process(s, IN_HEADER + READ_IN);
        if (s.keptLength < OUT_HEADER) {
            replyError(s, unique, EIO);
            return;
        }
        int error = s.kept.getInt(4);
        if (error != 0) {
            replyError(s, unique, -error);
            return;
        }
        long listed = s.keptLength;
        byte[] listing = new byte[(int) (listed - OUT_HEADER)];
        s.kept.get(OUT_HEADER, listing, 0, listing.length);
        long at = OUT_HEADER;
        java.nio.ByteBuffer dirents = java.nio.ByteBuffer.wrap(listing).order(java.nio.ByteOrder.nativeOrder());
        int pos = 0;
        while (pos + DIRENT_NAME <= listing.length) {
            long ino = dirents.getLong(pos);
            long off = dirents.getLong(pos + 8);
            int nameLength = dirents.getInt(pos + 16);
            int type = dirents.getInt(pos + 20);
            int direntLength = align8(DIRENT_NAME + nameLength);
            int plusLength = align8(ENTRY_OUT + DIRENT_NAME + nameLength);
            if (nameLength <= 0 || nameLength > MAX_NAME || pos + DIRENT_NAME + nameLength > listing.length
                    || at + plusLength > OUT_HEADER + size) {
                break;
            }
            s.reply.setMemory(at, plusLength, (byte) 0);
            long node = 0;
            if (!dotOrDotDot(listing, pos + DIRENT_NAME, nameLength)
                    && !recent.fresh(folder, listing, pos + DIRENT_NAME, nameLength)) {
                node = lookUp(s, request, folder, listing, pos + DIRENT_NAME, nameLength);
                if (node != 0) {
                    s.kept.transferTo(OUT_HEADER, s.reply, at, ENTRY_OUT);
                    type = (s.reply.getInt(at + ENTRY_MODE) >>> 12) & 0xf;
                }
            }
            count(s, node, pos + DIRENT_NAME, nameLength);
            s.reply.putLong(at + ENTRY_OUT, ino);
            s.reply.putLong(at + ENTRY_OUT + 8, off);
            s.reply.putInt(at + ENTRY_OUT + 16, nameLength);
            s.reply.putInt(at + ENTRY_OUT + 20, type);
            s.reply.put(at + ENTRY_OUT + DIRENT_NAME, listing, pos + DIRENT_NAME, nameLength);
            at += plusLength;
            pos += direntLength;
        }
        if (s.entries == 0 && listing.length >= DIRENT_NAME) {
            replyError(s, unique, EIO); // an empty reply would end the listing early; cannot happen with a page
            return;
        }
        s.reply.putInt(0, (int) at);
        s.reply.putInt(4, 0);
        s.reply.putLong(8, unique);
        if (libc.write(fd, s.reply, at) < 0) {
            // Not taken (the connection aborted, the mount going away): the kernel counted none of these lookups.
            forget(s, request);
        } else {
            int given = s.entries;
            s.entries = 0; // the kernel holds these now: whatever fails after this must never forget them
            noteGiven(s, folder, listing, given);
        }
    }

    private static void count(Scratch s, long node, int nameAt, int nameLength) {
        if (s.entries == s.counted.length) {
            s.counted = java.util.Arrays.copyOf(s.counted, s.entries * 2);
            s.names = java.util.Arrays.copyOf(s.names, s.entries * 2);
        }
        s.names[s.entries] = (long) nameAt << 32 | nameLength;
        s.counted[s.entries++] = node;
    }

    /** After the kernel took the reply: the names it was given an entry for count as held by it. */
    private void noteGiven(Scratch s, long folder, byte[] listing, int given) {
        try {
            for (int i = 0; i < given; i++) {
                if (s.counted[i] != 0) {
                    recent.note(folder, listing, (int) (s.names[i] >>> 32), (int) s.names[i]);
                }
            }
        } catch (RuntimeException | Error e) {
            // a name not noted only costs a lookup in a later listing
        }
    }

    /** libfuse's lookup of one name in {@code folder}: the node it counted (its entry in s.kept), or 0. */
    private long lookUp(Scratch s, Pointer request, long folder, byte[] listing, int nameAt, int nameLength) {
        int len = IN_HEADER + nameLength + 1;
        request.transferTo(0, s.request, 0, IN_HEADER); // unique, uid, gid, pid of the kernel's request
        s.request.putInt(0, len);
        s.request.putInt(4, FUSE_LOOKUP);
        s.request.putLong(16, folder);
        s.request.put(IN_HEADER, listing, nameAt, nameLength);
        s.request.putByte(IN_HEADER + nameLength, (byte) 0);
        lookups.incrementAndGet();
        process(s, len);
        if (s.keptLength < OUT_HEADER + ENTRY_OUT || s.kept.getInt(4) != 0) {
            return 0; // gone meanwhile, or hidden: listed without attributes, as READDIR would
        }
        return s.kept.getLong(OUT_HEADER);
    }

    /** Gives back the lookups counted for a reply the kernel did not take (or that was not sent). */
    private void forget(Scratch s, Pointer request) {
        long[] nodes = s.counted;
        int entries = s.entries;
        s.entries = 0;
        for (int i = 0; i < entries; i++) {
            if (nodes[i] == 0) {
                continue;
            }
            request.transferTo(0, s.request, 0, IN_HEADER);
            s.request.putInt(0, IN_HEADER + 8);
            s.request.putInt(4, FUSE_FORGET);
            s.request.putLong(16, nodes[i]);
            s.request.putLong(IN_HEADER, 1); // fuse_forget_in.nlookup
            process(s, IN_HEADER + 8);
        }
    }

    private void process(Scratch s, int length) {
        s.keptLength = 0;
        beforeEachRequest.run();
        lib.fuse_session_process(session, s.request, length, keep.channel);
    }

    private void replyError(Scratch s, long unique, int errno) {
        s.reply.putInt(0, OUT_HEADER);
        s.reply.putInt(4, -errno);
        s.reply.putLong(8, unique);
        libc.write(fd, s.reply, OUT_HEADER);
    }

    private static boolean dotOrDotDot(byte[] b, int at, int length) {
        return (length == 1 && b[at] == '.') || (length == 2 && b[at] == '.' && b[at + 1] == '.');
    }

    static int align8(int n) {
        return (n + 7) & ~7;
    }
}
