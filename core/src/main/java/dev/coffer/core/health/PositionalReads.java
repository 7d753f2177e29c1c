package dev.coffer.core.health;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Reads a whole range of a ciphertext file, telling a premature end of file apart (the checks report it). */
final class PositionalReads {
    private PositionalReads() {}

    /** Fills {@code buf} from {@code position}; false at a premature end of file. */
    static boolean readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                return false;
            }
            pos += n;
        }
        return true;
    }
}
