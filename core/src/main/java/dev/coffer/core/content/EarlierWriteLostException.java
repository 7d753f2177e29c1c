package dev.coffer.core.content;

import java.io.IOException;

/**
 * Thrown by a call on an open file when an earlier write, whose call had already returned
 * successfully, ran behind and failed (a full disk) and was undone: the bytes that call was told
 * were written are gone. Its message begins with {@link #MESSAGE_START} and carries the cause's
 * (e.g. "No space left on device"), so that whoever sees only the message (the FUSE frontend, which
 * knows java.nio only; errno mapping by text) can tell it from a call's own failure.
 */
public final class EarlierWriteLostException extends IOException {
    private static final long serialVersionUID = 1L;
    /** How the message begins. */
    public static final String MESSAGE_START = "an earlier write of this file failed and was undone";

    /** The file's count of undone writes once this one was counted (set by the file under its lock); 0 before. */
    private volatile long count;

    EarlierWriteLostException(Throwable cause) {
        super(MESSAGE_START + ": " + cause.getMessage(), cause);
    }

    private EarlierWriteLostException(Throwable cause, long count) {
        this(cause);
        this.count = count;
    }

    void counted(long count) {
        this.count = count;
    }

    /**
     * How many lost writes of the file a caller told of this one has been told of: the file's count
     * when this one was counted. Read with the exception, so a caller's record never jumps past a
     * loss counted after this one.
     */
    public long count() {
        return count;
    }

    /**
     * As the original, for one more reporter: several channels may report the same loss, and one
     * object thrown twice would make try-with-resources suppress it into itself.
     */
    public EarlierWriteLostException copy() {
        return new EarlierWriteLostException(getCause(), count);
    }
}
