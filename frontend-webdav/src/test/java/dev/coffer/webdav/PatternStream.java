package dev.coffer.webdav;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;

/**
 * Test helper: a long, reproducible byte stream generated on the fly (no memory or disk for the
 * whole), where every MiB is a random block rotated by its index, so a byte at the wrong offset
 * shows. {@link #verify} reads a stream and compares it with the pattern.
 */
final class PatternStream extends InputStream {
    private static final int BLOCK = 1 << 20;
    private static final byte[] DATA = new byte[BLOCK];

    static {
        new Random(42).nextBytes(DATA);
    }

    private final long length;
    private long pos;

    PatternStream(long length) {
        this.length = length;
    }

    static byte at(long p) {
        long chunk = p / BLOCK;
        return DATA[(int) ((p + chunk * 7919) % BLOCK)];
    }

    @Override
    public int read() {
        return pos < length ? at(pos++) & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (pos >= length) {
            return -1;
        }
        int n = (int) Math.min(len, length - pos);
        int done = 0;
        while (done < n) {
            long chunk = (pos + done) / BLOCK;
            int start = (int) (((pos + done) + chunk * 7919) % BLOCK);
            int inChunk = (int) Math.min(n - done, BLOCK - (pos + done) % BLOCK);
            int first = Math.min(inChunk, BLOCK - start);
            System.arraycopy(DATA, start, b, off + done, first);
            if (first < inChunk) {
                System.arraycopy(DATA, 0, b, off + done + first, inChunk - first);
            }
            done += inChunk;
        }
        pos += n;
        return n;
    }

    /** Reads {@code in} to its end; returns the offset of the first difference, or -1 if it is exactly the pattern of {@code length}. */
    static long verify(InputStream in, long length) throws IOException {
        byte[] buf = new byte[1 << 16];
        byte[] expected = new byte[1 << 16];
        PatternStream ref = new PatternStream(length);
        long p = 0;
        int n;
        while ((n = in.read(buf)) >= 0) {
            if (p + n > length) {
                return length;
            }
            ref.readNBytes(expected, 0, n);
            int i = java.util.Arrays.mismatch(buf, 0, n, expected, 0, n); // vectorised: a byte loop took seconds for 4 GiB
            if (i >= 0) {
                return p + i;
            }
            p += n;
        }
        return p == length ? -1 : p;
    }
}
