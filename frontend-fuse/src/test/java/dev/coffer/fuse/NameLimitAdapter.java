package dev.coffer.fuse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import jnr.ffi.types.dev_t;
import jnr.ffi.types.mode_t;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * Test adapter: a file system that refuses names longer than {@code maxNameBytes} with
 * ENAMETOOLONG when something is created or renamed (like a FAT or eCryptfs-backed folder), so
 * that a vault can be put on a really name-limited store.
 */
class NameLimitAdapter extends FuseAdapter {
    private final int maxNameBytes;

    NameLimitAdapter(Path root, long uid, long gid, int maxNameBytes) {
        super(root, uid, gid);
        this.maxNameBytes = maxNameBytes;
    }

    private boolean tooLong(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.getBytes(StandardCharsets.UTF_8).length > maxNameBytes;
    }

    @Override
    public int mknod(String path, @mode_t long mode, @dev_t long rdev) {
        return tooLong(path) ? -ErrorCodes.ENAMETOOLONG() : super.mknod(path, mode, rdev);
    }

    @Override
    public int mkdir(String path, @mode_t long mode) {
        return tooLong(path) ? -ErrorCodes.ENAMETOOLONG() : super.mkdir(path, mode);
    }

    @Override
    public int symlink(String target, String linkPath) {
        return tooLong(linkPath) ? -ErrorCodes.ENAMETOOLONG() : super.symlink(target, linkPath);
    }

    @Override
    public int rename(String from, String to) {
        return tooLong(to) ? -ErrorCodes.ENAMETOOLONG() : super.rename(from, to);
    }

    @Override
    public int create(String path, @mode_t long mode, FuseFileInfo fi) {
        return tooLong(path) ? -ErrorCodes.ENAMETOOLONG() : super.create(path, mode, fi);
    }
}
