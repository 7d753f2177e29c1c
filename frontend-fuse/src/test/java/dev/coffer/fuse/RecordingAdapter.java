package dev.coffer.fuse;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/** Test adapter: records the threads that call it and the largest read and write requests. */
class RecordingAdapter extends FuseAdapter {
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    final AtomicLong largestWrite = new AtomicLong();
    final AtomicLong largestRead = new AtomicLong();

    RecordingAdapter(Path root, long uid, long gid) {
        super(root, uid, gid);
    }

    @Override
    public int getattr(String path, FileStat stat) {
        threads.add(Thread.currentThread().getName());
        return super.getattr(path, stat);
    }

    @Override
    public int read(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
        threads.add(Thread.currentThread().getName());
        largestRead.accumulateAndGet(size, Math::max);
        return super.read(path, buf, size, offset, fi);
    }

    @Override
    public int write(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
        threads.add(Thread.currentThread().getName());
        largestWrite.accumulateAndGet(size, Math::max);
        return super.write(path, buf, size, offset, fi);
    }
}
