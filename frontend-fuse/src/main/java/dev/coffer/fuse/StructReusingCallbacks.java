package dev.coffer.fuse;

import static dev.coffer.fuse.PerThreadStructs.fileInfo;
import static dev.coffer.fuse.PerThreadStructs.stat;

import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Pointer;
import jnr.ffi.BaseStruct;
import jnr.ffi.annotations.Delegate;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.struct.FuseOperations;

/**
 * Replaces jnr-fuse's closures for the callbacks every file's life goes through (getattr, open,
 * create, read, write, flush, release, fgetattr, ftruncate, fsync) with ones that hand the adapter
 * {@link PerThreadStructs}' views instead of new structs; each calls the same adapter method as
 * jnr-fuse's closure, with the same arguments, except that the calls on an open file (read, write,
 * flush, release, fsync, ftruncate), which go by the file's handle, get no path: libfuse still
 * builds it, but jnr-ffi no longer decodes it into a {@code String} nobody reads (~5 of the ~11
 * requests of a file that {@code tar xf} makes). The operations table and this class's list keep the closures alive.
 */
final class StructReusingCallbacks {
    /** {@code read} of {@code struct fuse_operations}, the path undecoded. Public only because jnr-ffi implements it. */
    public interface HandleRead {
        @Delegate
        int read(Pointer path, Pointer buf, @size_t long size, @off_t long offset, Pointer fi);
    }

    /** {@code write}, the path undecoded. */
    public interface HandleWrite {
        @Delegate
        int write(Pointer path, Pointer buf, @size_t long size, @off_t long offset, Pointer fi);
    }

    /** {@code flush} and {@code release} (the same signature), the path undecoded. */
    public interface HandleCall {
        @Delegate
        int call(Pointer path, Pointer fi);
    }

    /** {@code fsync}, the path undecoded. */
    public interface HandleFsync {
        @Delegate
        int fsync(Pointer path, int isdatasync, Pointer fi);
    }

    /** {@code ftruncate}, the path undecoded. */
    public interface HandleTruncate {
        @Delegate
        int ftruncate(Pointer path, @off_t long size, Pointer fi);
    }

    private StructReusingCallbacks() {}

    /** Installs the closures; the returned list holds the ones jnr-fuse's table does not, and must be kept as long as the table. */
    static List<Object> install(FuseOperations ops, FuseAdapter a) {
        ops.getattr.set((path, stbuf) -> a.getattr(path, stat(stbuf)));
        ops.fgetattr.set((path, stbuf, fi) -> a.fgetattr(path, stat(stbuf), fileInfo(fi)));
        ops.open.set((path, fi) -> a.open(path, fileInfo(fi)));
        ops.create.set((path, mode, fi) -> a.create(path, mode, fileInfo(fi)));
        List<Object> held = new ArrayList<>();
        put(ops.read, HandleRead.class, (path, buf, size, offset, fi) -> a.read(null, buf, size, offset, fileInfo(fi)), held);
        put(ops.write, HandleWrite.class, (path, buf, size, offset, fi) -> a.write(null, buf, size, offset, fileInfo(fi)), held);
        put(ops.flush, HandleCall.class, (path, fi) -> a.flush(null, fileInfo(fi)), held);
        put(ops.release, HandleCall.class, (path, fi) -> a.release(null, fileInfo(fi)), held);
        put(ops.ftruncate, HandleTruncate.class, (path, size, fi) -> a.ftruncate(null, size, fileInfo(fi)), held);
        put(ops.fsync, HandleFsync.class, (path, isdatasync, fi) -> a.fsync(null, isdatasync, fileInfo(fi)), held);
        return held;
    }

    /** Stores {@code closure} of {@code type} in the table's {@code field}; the closure and its native pointer go to {@code held}. */
    private static <T> void put(BaseStruct.Func<?> field, Class<T> type, T closure, List<Object> held) {
        Pointer fn = field.struct().getRuntime().getClosureManager().getClosurePointer(type, closure);
        field.getMemory().putPointer(field.offset(), fn);
        held.add(closure);
        held.add(fn);
    }
}
