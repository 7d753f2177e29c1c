package dev.coffer.fuse;

import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * One {@link FileStat} and one {@link FuseFileInfo} view per FUSE thread, pointed at each callback's
 * native memory in turn. jnr-fuse builds both anew for every callback (FileStat has 25 field objects):
 * ~230 ns a request once compiled, and an interpreted constructor of 1,191 bytecodes in a fresh JVM.
 * A view is only valid until its thread's next callback: no callee may keep one.
 */
final class PerThreadStructs {
    private static final ThreadLocal<FileStat> STATS = ThreadLocal.withInitial(() -> new FileStat(Runtime.getSystemRuntime()));
    private static final ThreadLocal<FuseFileInfo> INFOS = ThreadLocal.withInitial(() -> FuseFileInfo.of(null));

    private PerThreadStructs() {}

    /** This thread's FileStat view over {@code memory} (what {@code FileStat.of(memory)} gives, without the allocations). */
    static FileStat stat(Pointer memory) {
        FileStat s = STATS.get();
        s.useMemory(memory);
        return s;
    }

    /** This thread's FuseFileInfo view over {@code memory}, which may be null (no handle), as {@code FuseFileInfo.of} allows. */
    static FuseFileInfo fileInfo(Pointer memory) {
        FuseFileInfo fi = INFOS.get();
        fi.useMemory(memory);
        return fi;
    }
}
