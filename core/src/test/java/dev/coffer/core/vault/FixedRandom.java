package dev.coffer.core.vault;

import java.security.SecureRandom;

/** A "random" source that replays given bytes, then zeros: for reproducing known-answer files. */
final class FixedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;
    private int position;

    FixedRandom(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public synchronized void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i++) {
            out[i] = position < bytes.length ? bytes[position++] : 0;
        }
    }
}
