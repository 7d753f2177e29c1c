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
 * <p>Outside a worker (tests that call the adapter directly) there is no request: the requester is
 * 0 and marks go nowhere.
 */
final class WorkerRequest {
    private static final ThreadLocal<WorkerRequest> WORKER = new ThreadLocal<>();

    private long requester;
    private boolean lostWriteNoted;

    /** Makes the calling thread (a session worker) one whose requests are known; returns its state. */
    static WorkerRequest forThisWorker() {
        WorkerRequest request = new WorkerRequest();
        WORKER.set(request);
        return request;
    }

    /** A new request, sent by {@code requester} (FUSE's pid: the sending thread's ID), is being answered. */
    void start(long requester) {
        this.requester = requester;
        this.lostWriteNoted = false;
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
