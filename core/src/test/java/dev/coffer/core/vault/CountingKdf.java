package dev.coffer.core.vault;

import java.util.concurrent.atomic.AtomicInteger;

/** Real scrypt that counts its calls, to prove that refused parameters never reach it. */
final class CountingKdf implements Kdf {
    private final AtomicInteger calls = new AtomicInteger();

    @Override
    public byte[] kek(byte[] passphraseUtf8, byte[] salt, ScryptParams params) {
        calls.incrementAndGet();
        return Kdf.SCRYPT.kek(passphraseUtf8, salt, params);
    }

    int calls() {
        return calls.get();
    }
}
