package dev.coffer.core.crypto;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Small, fast byte-array helpers shared by the primitives: XOR eight bytes at a time, zeroing. */
public final class Bytes {
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Bytes() {}

    /** {@code out[outOff+i] = a[aOff+i] ^ b[bOff+i]} for {@code len} bytes. */
    public static void xor(byte[] a, int aOff, byte[] b, int bOff, byte[] out, int outOff, int len) {
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long x = (long) LONG_LE.get(a, aOff + i) ^ (long) LONG_LE.get(b, bOff + i);
            LONG_LE.set(out, outOff + i, x);
        }
        for (; i < len; i++) {
            out[outOff + i] = (byte) (a[aOff + i] ^ b[bOff + i]);
        }
    }

    static long getLongLE(byte[] a, int off) {
        return (long) LONG_LE.get(a, off);
    }

    static void putLongLE(byte[] a, int off, long v) {
        LONG_LE.set(a, off, v);
    }

    /** Zeroes each array that is not null (secrets are wiped in finally blocks). */
    public static void wipe(byte[]... arrays) {
        for (byte[] a : arrays) {
            if (a != null) {
                Arrays.fill(a, (byte) 0);
            }
        }
    }
}
