package dev.coffer.fuse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one FUSE operation and turns whatever it throws into a negative errno through {@link Errno}.
 * Failures are ordinary for a file system (ENOENT on every lookup of a new name), so they are logged
 * at DEBUG only, by operation name and exception type: never a cleartext name, never a message that
 * could hold one. Nothing escapes into jnr-fuse, which would otherwise crash the callback.
 *
 * <p>Not responsible for what the operations do.
 */
final class Calls {
    private static final Logger LOG = LoggerFactory.getLogger(Calls.class);

    /** An operation that returns a non-negative result (0 or a byte count). */
    @FunctionalInterface
    interface Operation {
        int run() throws Exception;
    }

    private Calls() {}

    static int run(String op, Operation operation) {
        try {
            return operation.run();
        } catch (Throwable t) { // a callback must answer whatever went wrong: an escaping throwable kills the mount
            int errno = Errno.of(t);
            if (LOG.isDebugEnabled()) {
                LOG.debug("{} -> errno {} ({})", op, errno, Errno.unwrap(t).getClass().getName());
            }
            return -errno;
        }
    }
}
