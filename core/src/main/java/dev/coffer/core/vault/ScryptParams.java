package dev.coffer.core.vault;

import java.math.BigInteger;

/**
 * scrypt cost parameters N, r, p of a masterkey file and the limits of spec 2.1 that a reader checks
 * before allocating anything for scrypt. Values are longs so that absurd inputs are reported as
 * written instead of overflowing.
 *
 * <p>Not responsible for running scrypt ({@link Kdf}) or for the file's other fields.
 */
record ScryptParams(long n, long r, long p) {
    static final int MIN_N = 1 << 14;
    static final int DEFAULT_N = 1 << 17;
    static final int DEFAULT_R = 8;
    static final int DEFAULT_P = 1;
    /** N * r above 2^23 means more than 1 GiB of memory (128 * N * r bytes). */
    static final long MAX_NR = 1L << 23;
    static final long MAX_NRP = 1L << 25;

    static ScryptParams defaults() {
        return new ScryptParams(DEFAULT_N, DEFAULT_R, DEFAULT_P);
    }

    /** Refuses parameters outside spec 2.1; {@code what} prefixes the message (the file name). */
    void validate(String what) throws VaultFormatException {
        if (n < MIN_N || Long.bitCount(n) != 1) {
            throw new VaultFormatException(what + ": scrypt N = " + n + " must be a power of two and at least 2^14");
        }
        if (r < 1 || p < 1) {
            throw new VaultFormatException(what + ": scrypt r = " + r + ", p = " + p + ": both must be at least 1");
        }
        BigInteger nr = BigInteger.valueOf(n).multiply(BigInteger.valueOf(r));
        if (nr.compareTo(BigInteger.valueOf(MAX_NR)) > 0) {
            throw new VaultFormatException(what + ": scrypt N*r = " + nr + " exceeds 2^23 (more than 1 GiB of memory)");
        }
        BigInteger nrp = nr.multiply(BigInteger.valueOf(p));
        if (nrp.compareTo(BigInteger.valueOf(MAX_NRP)) > 0) {
            throw new VaultFormatException(what + ": scrypt N*r*p = " + nrp + " exceeds 2^25");
        }
        // RFC 7914 requires N < 2^(16 r); after the checks above only r < 4 can break it.
        if (16 * r < 63 && n >= 1L << (16 * r)) {
            throw new VaultFormatException(what + ": scrypt N = " + n + " must be less than 2^(16*r) = 2^"
                    + (16 * r) + " (RFC 7914)");
        }
    }

    /**
     * For a passphrase change (spec 2.1): each parameter raised to at least its default, unless the
     * raised set would break a limit, in which case these (already valid) parameters stay.
     */
    ScryptParams raisedToDefaults() {
        ScryptParams raised = new ScryptParams(Math.max(n, DEFAULT_N), Math.max(r, DEFAULT_R), Math.max(p, DEFAULT_P));
        try {
            raised.validate("raised");
            return raised;
        } catch (VaultFormatException e) {
            return this;
        }
    }

    /** N as an int; valid parameters always fit. */
    int nInt() {
        return Math.toIntExact(n);
    }

    int rInt() {
        return Math.toIntExact(r);
    }

    int pInt() {
        return Math.toIntExact(p);
    }
}
