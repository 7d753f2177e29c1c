package dev.coffer.fuse;

/**
 * What the {@link SessionLoop} knows of the request a worker thread is answering, for the code that
 * answers it deeper down, which libfuse's high-level calls do not tell: who sent it, and whether it
 * found an earlier write of its file lost.
 *
 * <p>A lost write: the vault undid a write that ran behind ({@link FileOps}), but the kernel still
 * holds that write's pages and the file size it gave, so a program that has the file open would read
 * the lost bytes from the page cache as if they were stored. A request that finds one is marked
 * ({@link #noteLostWrite}); once its reply has gone out, the session loop has the kernel drop the
 * file's cached pages and attributes, from a thread of its own (the kernel's invalidation waits for
 * pages that the writer's own request, on older kernels, or requests still queued for a worker
 * hold).
 *
 * <p>A request can also have the kernel drop the cached attributes of its own node before it is
 * answered ({@link #dropCachedAttributes}): an OPEN that finds the kernel's size stale ({@link KernelSizes}).
 *
 * <p>Outside a worker (tests that call the adapter directly) there is no request: the requester is
 * 0 and marks go nowhere.
 */
final class WorkerRequest {
    private static final ThreadLocal<WorkerRequest> WORKER = new ThreadLocal<>();

    /** Sends the kernel a node's attribute invalidation; 0 or -errno. */
    interface AttributeDrop {
        int drop(long nodeid);
    }

    private long requester;
    private long nodeid;
    private boolean lostWriteNoted;
    private AttributeDrop attributeDrop; // null where libfuse's notifications are not bound

    /** Makes the calling thread (a session worker) one whose requests are known; returns its state. */
    static WorkerRequest forThisWorker() {
        WorkerRequest request = new WorkerRequest();
        WORKER.set(request);
        return request;
    }

    /** How this worker's requests drop their node's cached attributes (set once, by its session loop). */
    void dropAttributesWith(AttributeDrop drop) {
        this.attributeDrop = drop;
    }

    /**
     * A new request about node {@code nodeid} (0 if none), sent by {@code requester} (FUSE's pid: the
     * sending thread's ID), is being answered.
     */
    void start(long requester, long nodeid) {
        this.requester = requester;
        this.nodeid = nodeid;
        this.lostWriteNoted = false;
    }

    /**
     * Has the kernel drop the cached attributes (not the pages) of the node the request on this
     * thread is about, at once: before the reply, so that the requester's next stat or read past the
     * old size asks again. Safe on a worker: the kernel waits for no page here. False off a worker,
     * where notifications are not bound, or if the kernel refused it.
     */
    static boolean dropCachedAttributes() {
        WorkerRequest request = WORKER.get();
        if (request == null || request.attributeDrop == null || request.nodeid == 0) {
            return false;
        }
        return request.attributeDrop.drop(request.nodeid) == 0;
    }

    /** Who sent the request this thread is answering; 0 off a worker. */
    static long requester() {
        WorkerRequest request = WORKER.get();
        return request == null ? 0 : request.requester;
    }

    /** The request being answered on this thread found an earlier write of its file lost; no-op off a worker. */
    static void noteLostWrite() {
        WorkerRequest request = WORKER.get();
        if (request != null) {
            request.lostWriteNoted = true;
        }
    }

    /** Whether the request just answered found a lost write; clears the mark. */
    boolean takeLostWrite() {
        boolean noted = lostWriteNoted;
        lostWriteNoted = false;
        return noted;
    }
}
