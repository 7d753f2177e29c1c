package dev.coffer.fuse;

import java.nio.ByteOrder;
import jnr.ffi.Pointer;
import jnr.ffi.Struct;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * Answers an OPEN with direct I/O (libfuse 2's {@code fuse_file_info.direct_io}, which it turns into
 * the kernel's {@code FOPEN_DIRECT_IO}): the kernel then reads that open file without its page cache
 * and read-ahead, and does not cut reads at the size it holds. jnr-fuse does not map the bit field,
 * so it is set in the struct's memory, where libfuse 2.9 has it on 64-bit Linux: after {@code int
 * flags}, {@code unsigned long fh_old} and {@code int writepage}, the first bit of the {@code unsigned
 * int} at byte 20. Elsewhere (another layout, another platform's FUSE) nothing is set.
 */
final class DirectIo {
    /** offsetof(struct fuse_file_info, direct_io's word) in libfuse 2.9 on LP64 Linux. */
    static final int BITS_OFFSET = 20;
    static final int DIRECT_IO = 1;
    private static final boolean LAYOUT_KNOWN = System.getProperty("os.name", "").equals("Linux")
            && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN && jnr.ffi.Runtime.getSystemRuntime().addressSize() == 8;

    private DirectIo() {}

    /** Sets {@code fi}'s direct_io bit where the layout is known; false where it is not. */
    static boolean answerWith(FuseFileInfo fi) {
        Pointer memory = Struct.getMemory(fi);
        if (!LAYOUT_KNOWN || memory == null) {
            return false;
        }
        memory.putInt(BITS_OFFSET, memory.getInt(BITS_OFFSET) | DIRECT_IO);
        return true;
    }
}
