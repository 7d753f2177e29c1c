package dev.coffer.core.nio;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whom a file system tells about its conflict copies ({@link CofferFileSystem#onConflictCopies}).
 * A listener that throws is logged (its exception type only: a message may hold a name) and skipped:
 * the rescue and the close it is part of go on.
 */
final class ConflictCopyListeners {
    private static final Logger LOG = LoggerFactory.getLogger(ConflictCopyListeners.class);
    private final List<Consumer<ConflictCopy>> listeners = new CopyOnWriteArrayList<>();

    void add(Consumer<ConflictCopy> listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** True if someone listens: then the person is told the names, and the log's nameless WARN is marked so. */
    boolean any() {
        return !listeners.isEmpty();
    }

    /** Tells each listener, on the calling thread. */
    void tell(ConflictCopy event) {
        for (Consumer<ConflictCopy> l : listeners) {
            try {
                l.accept(event);
            } catch (Throwable e) { // an Error too: a lock's rescues still to come must not be skipped (their writes lost)
                LOG.warn("a listener of conflict copies failed ({})", e.getClass().getName());
            }
        }
    }
}
