package dev.coffer.webdav;

import java.io.IOException;

/**
 * An OS mount of a served tree is still in use (a program has a file open for writing through it,
 * or the client is still uploading), so it was left mounted; the server must keep running.
 */
public final class OsMountBusyException extends IOException {
    private static final long serialVersionUID = 1L;

    public OsMountBusyException(String message) {
        super(message);
    }
}
