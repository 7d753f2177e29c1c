package dev.coffer.fuse;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * Test adapter: a read of any file under {@code /slow} takes {@code delayMillis} (a vault on a slow
 * cloud folder), and signals when the first one has started. Reads come with no path (they go by
 * handle), so the handles opened under {@code /slow} are noted at their open.
 */
class SlowAdapter extends FuseAdapter {
    final CountDownLatch slowReadStarted = new CountDownLatch(1);
    private final long delayMillis;
    private final Set<Long> slowHandles = ConcurrentHashMap.newKeySet();

    SlowAdapter(Path root, long uid, long gid, long delayMillis) {
        super(root, uid, gid);
        this.delayMillis = delayMillis;
    }

    @Override
    public int open(String path, FuseFileInfo fi) {
        int res = super.open(path, fi);
        if (res == 0 && path.startsWith("/slow/")) {
            slowHandles.add(fi.fh.get());
        }
        return res;
    }

    @Override
    public int read(String path, Pointer buf, long size, long offset, FuseFileInfo fi) {
        if (slowHandles.contains(fi.fh.get())) {
            slowReadStarted.countDown();
            try {
                TimeUnit.MILLISECONDS.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return super.read(path, buf, size, offset, fi);
    }
}
