package dev.coffer.fuse;

import static dev.coffer.fuse.PerThreadStructs.fileInfo;
import static dev.coffer.fuse.PerThreadStructs.stat;

import ru.serce.jnrfuse.struct.FuseOperations;

/**
 * Replaces jnr-fuse's closures for the callbacks every file's life goes through (getattr, open,
 * create, read, write, flush, release, fgetattr, ftruncate, fsync) with ones that hand the adapter
 * {@link PerThreadStructs}' views instead of new structs; each calls the same adapter method as
 * jnr-fuse's closure, with the same arguments. The operations table keeps the closures alive.
 */
final class StructReusingCallbacks {
    private StructReusingCallbacks() {}

    static void install(FuseOperations ops, FuseAdapter a) {
        ops.getattr.set((path, stbuf) -> a.getattr(path, stat(stbuf)));
        ops.fgetattr.set((path, stbuf, fi) -> a.fgetattr(path, stat(stbuf), fileInfo(fi)));
        ops.open.set((path, fi) -> a.open(path, fileInfo(fi)));
        ops.create.set((path, mode, fi) -> a.create(path, mode, fileInfo(fi)));
        ops.read.set((path, buf, size, offset, fi) -> a.read(path, buf, size, offset, fileInfo(fi)));
        ops.write.set((path, buf, size, offset, fi) -> a.write(path, buf, size, offset, fileInfo(fi)));
        ops.flush.set((path, fi) -> a.flush(path, fileInfo(fi)));
        ops.release.set((path, fi) -> a.release(path, fileInfo(fi)));
        ops.ftruncate.set((path, size, fi) -> a.ftruncate(path, size, fileInfo(fi)));
        ops.fsync.set((path, isdatasync, fi) -> a.fsync(path, isdatasync, fileInfo(fi)));
    }
}
