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

    EarlierWriteLostException(Throwable cause) {
        super(MESSAGE_START + ": " + cause.getMessage(), cause);
    }

    /**
     * As the original, for one more reporter: several channels may report the same loss, and one
     * object thrown twice would make try-with-resources suppress it into itself.
     */
    public EarlierWriteLostException copy() {
        return new EarlierWriteLostException(getCause());
    }
}
