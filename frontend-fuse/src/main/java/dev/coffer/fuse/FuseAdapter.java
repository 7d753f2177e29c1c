package dev.coffer.fuse;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import jnr.ffi.Pointer;
import jnr.ffi.Struct;
import jnr.ffi.types.dev_t;
import jnr.ffi.types.gid_t;
import jnr.ffi.types.mode_t;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.uid_t;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.FuseOperations;
import ru.serce.jnrfuse.struct.Statvfs;
import ru.serce.jnrfuse.struct.Timespec;

/**
 * The jnr-fuse callbacks of a mount, each one line: run the matching operation of {@link FileOps},
 * {@link TreeOps} or {@link AttributeOps} through {@link Calls}, which answers every exception with
 * an errno. Serves any {@link Path} and knows nothing of vaults. Hard links answer EPERM; extended
 * attributes answer ENOSYS, which the kernel turns into ENOTSUP for programs and remembers, so that
 * it stops asking for {@code security.capability} before every write.
 *
 * <p>A file unlinked while open stays usable through its handles: libfuse renames it to a
 * {@code .fuse_hidden} name, which {@link Backing} keeps in a reserved folder out of sight.
 *
 * <p>The calls on an open file (read, write, flush, release, fsync, ftruncate) go by its handle and
 * get a null path: {@link StructReusingCallbacks} does not have jnr-ffi decode one.
 *
 * <p>Not responsible for mounting ({@link FuseMount}) or threads ({@link SessionLoop}). Not final:
 * tests subclass it to slow an operation down or record the threads that call it.
 */
public class FuseAdapter extends FuseStubFS {
    private final Backing backing;
    private final OpenFileTable handles = new OpenFileTable();
    private final FileOps files;
    private final TreeOps tree;
    private final AttributeOps attributes;
    private final CompletableFuture<Void> initialised = new CompletableFuture<>();
    /** Native code calls these through the operations table for the mount's life. */
    private final List<Object> handleCallbacks;

    /** An adapter serving {@code root}; entries are reported as owned by {@code uid}/{@code gid}. */
    public FuseAdapter(Path root, long uid, long gid) {
        this(root, uid, gid, NameForm.NFC);
    }

    /** As {@link #FuseAdapter(Path, long, long)}, listing names in {@code names}' form. */
    public FuseAdapter(Path root, long uid, long gid, NameForm names) {
        this.backing = new Backing(root, uid, gid);
        ContentChanges changes = new ContentChanges();
        this.files = new FileOps(backing, handles, changes, StreamTiming.MOUNT, OpenFlagBits.HOST, WorkerRequest::requester);
        this.tree = new TreeOps(backing, names, changes);
        this.attributes = new AttributeOps(backing);
        this.handleCallbacks = StructReusingCallbacks.install(fuseOperations, this);
    }

    /**
     * The byte of {@code struct fuse_operations} (libfuse 2.9) that holds its bit fields, after the
     * 38 function pointers from {@code getattr} to {@code bmap}.
     */
    static final int FLAGS_OFFSET = 38 * 8;
    /** flag_nullpath_ok (bit 0: fh operations work on unlinked files) and flag_utime_omit_ok (bit 2). */
    static final byte FLAGS = 0b101;

    /** The libfuse operations table, with the flags this adapter relies on set. */
    FuseOperations operations() {
        Struct.getMemory(fuseOperations).putByte(FLAGS_OFFSET, FLAGS);
        return fuseOperations;
    }

    /** The kernel keeps entries and attributes {@code seconds} at most on this mount ({@link KernelSizes}); set before it starts. */
    void kernelKeepsAttributes(long seconds) {
        files.kernelSizes().cacheSeconds(seconds);
    }

    /** Called by the session loop before each request it processes on the calling thread. */
    void requestStarts() {
        tree.requestStarts();
    }

    /** Completes when the kernel has started the session (libfuse's init callback). */
    CompletableFuture<Void> initialised() {
        return initialised;
    }

    @Override
    public Pointer init(Pointer conn) {
        initialised.complete(null);
        return null;
    }

    /** Handles still open (tests check that every release arrived). */
    int openHandles() {
        return handles.size();
    }

    /** Read requests answered from a read stream so far. */
    long streamedReads() {
        return files.streamedReads();
    }

    /** Closes every handle still open: the mount is gone. */
    void closeHandles() throws IOException {
        files.stopStreams();
        handles.closeAll();
    }

    /**
     * Clears the reserved folder (before the session starts and after it ends): files that a failed
     * rename over them left with nowhere to go are moved to the top folder if they can be, files that
     * were unlinked while open and are still kept (a session that ended without releasing them) are deleted.
     */
    void clearUnlinked() throws IOException {
        tree.rescueUnplaced();
        backing.clearUnlinked();
    }

    @Override
    public int getattr(String path, FileStat stat) {
        return Calls.run("getattr", () -> {
            attributes.getattr(path, stat);
            noteSize(path, stat);
            return 0;
        });
    }

    /** The sizes the kernel was given (tests). */
    KernelSizes kernelSizes() {
        return files.kernelSizes();
    }

    /**
     * Notes the size a file's attributes give the kernel ({@link KernelSizes}); a name that is no file
     * now (a sync client made it a folder) has its notes dropped, so that a later rename of the
     * folder moves its own files' notes instead of taking it for a file's.
     */
    private void noteSize(String path, FileStat stat) {
        if ((stat.st_mode.intValue() & FileStat.S_IFMT) == FileStat.S_IFREG) {
            files.kernelSizes().noted(path, stat.st_size.longValue());
        } else {
            files.kernelSizes().forget(path);
        }
    }

    /**
     * The kernel asks with a handle when a read passes the size it has, at lseek SEEK_END, and libfuse
     * after a create (fstat(2) asks by name, as getattr). The answer is the handle's file's: the name's
     * attributes with the handle's size, or the handle's alone where the name is gone (unlinked
     * through the mount: no path; deleted underneath by a sync client: ENOENT, which failed the read)
     * or holds something else than a file now.
     */
    @Override
    public int fgetattr(String path, FileStat stat, FuseFileInfo fi) {
        return Calls.run("fgetattr", () -> {
            long fh = fi.fh.get();
            if (path == null) {
                files.fillUnlinked(fh, stat);
                return 0;
            }
            try {
                attributes.getattr(path, stat);
            } catch (NoSuchFileException gone) {
                files.fillUnlinked(fh, stat);
                noteSize(path, stat); // the name's node has this size now, for a later open of the name too
                return 0;
            }
            if ((stat.st_mode.intValue() & FileStat.S_IFMT) != FileStat.S_IFREG) {
                // The name holds a folder or link now (a sync client): another type would make the
                // kernel fail the open file's inode, and every read of it, with EIO.
                files.fillUnlinked(fh, stat);
                noteSize(path, stat);
                return 0;
            }
            files.sizeOfHandle(fh, stat);
            noteSize(path, stat);
            return 0;
        });
    }

    @Override
    public int readlink(String path, Pointer buf, @size_t long size) {
        return Calls.run("readlink", () -> {
            tree.readlink(path, buf, size);
            return 0;
        });
    }

    @Override
    public int mknod(String path, @mode_t long mode, @dev_t long rdev) {
        return Calls.run("mknod", () -> {
            tree.mknod(path, mode);
            return 0;
        });
    }

    @Override
    public int mkdir(String path, @mode_t long mode) {
        return Calls.run("mkdir", () -> {
            tree.mkdir(path, mode);
            return 0;
        });
    }

    @Override
    public int unlink(String path) {
        return Calls.run("unlink", () -> {
            tree.unlink(path);
            files.kernelSizes().forget(path);
            return 0;
        });
    }

    @Override
    public int rmdir(String path) {
        return Calls.run("rmdir", () -> {
            tree.rmdir(path);
            return 0;
        });
    }

    @Override
    public int symlink(String target, String linkPath) {
        return Calls.run("symlink", () -> {
            tree.symlink(target, linkPath);
            return 0;
        });
    }

    @Override
    public int rename(String from, String to) {
        return Calls.run("rename", () -> {
            tree.rename(from, to);
            files.kernelSizes().moved(from, to);
            handles.renamed(from, to); // their writes and truncates change the new name's notes
            return 0;
        });
    }

    @Override
    public int link(String target, String linkPath) {
        return -ErrorCodes.EPERM();
    }

    @Override
    public int chmod(String path, @mode_t long mode) {
        return Calls.run("chmod", () -> {
            attributes.chmod(path, mode);
            return 0;
        });
    }

    @Override
    public int chown(String path, @uid_t long uid, @gid_t long gid) {
        return Calls.run("chown", () -> {
            attributes.chown(uid, gid);
            return 0;
        });
    }

    @Override
    public int truncate(String path, @off_t long size) {
        return Calls.run("truncate", () -> {
            files.truncate(path, size);
            return 0;
        });
    }

    @Override
    public int ftruncate(String path, @off_t long size, FuseFileInfo fi) {
        return Calls.run("ftruncate", () -> {
            files.ftruncate(fi.fh.get(), size);
            return 0;
        });
    }

    @Override
    public int open(String path, FuseFileInfo fi) {
        return Calls.run("open", () -> {
            fi.fh.set(files.open(path, fi.flags.get(), () -> DirectIo.answerWith(fi)));
            return 0;
        });
    }

    @Override
    public int create(String path, @mode_t long mode, FuseFileInfo fi) {
        return Calls.run("create", () -> {
            fi.fh.set(files.create(path, mode, fi.flags.get()));
            return 0;
        });
    }

    @Override
    public int read(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        return Calls.run("read", () -> files.read(fi.fh.get(), buf, size, offset));
    }

    @Override
    public int write(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        // The file's flags as they are now (fcntl may have changed them); 0 for a page written back.
        boolean appends = files.appends(fi.flags.get());
        return Calls.run("write", () -> files.write(fi.fh.get(), buf, size, offset, appends));
    }

    /** Reports, at each close(), a failed write the backing ran behind (see {@link FileOps#flush}). */
    @Override
    public int flush(String path, FuseFileInfo fi) {
        return Calls.run("flush", () -> {
            files.flush(fi.fh.get());
            return 0;
        });
    }

    @Override
    public int fsync(String path, int isdatasync, FuseFileInfo fi) {
        return Calls.run("fsync", () -> {
            files.fsync(fi.fh.get(), isdatasync != 0);
            return 0;
        });
    }

    @Override
    public int release(String path, FuseFileInfo fi) {
        return Calls.run("release", () -> {
            files.release(fi.fh.get());
            return 0;
        });
    }

    @Override
    public int readdir(String path, Pointer buf, FuseFillDir filter, @off_t long offset, FuseFileInfo fi) {
        return Calls.run("readdir", () -> {
            tree.readdir(path, buf, filter);
            return 0;
        });
    }

    /**
     * Makes the folder's changes durable: a program that deletes a file and then fsyncs the folder
     * (SQLite's journal, maildir) relies on it, and the vault does not sync a folder after each delete.
     */
    @Override
    public int fsyncdir(String path, FuseFileInfo fi) {
        return Calls.run("fsyncdir", () -> {
            tree.syncFolder(path);
            return 0;
        });
    }

    @Override
    public int statfs(String path, Statvfs stbuf) {
        return Calls.run("statfs", () -> {
            attributes.statfs(stbuf);
            return 0;
        });
    }

    @Override
    public int access(String path, int mask) {
        return Calls.run("access", () -> {
            attributes.access(path, mask);
            return 0;
        });
    }

    @Override
    public int utimens(String path, Timespec[] timespec) {
        return Calls.run("utimens", () -> {
            attributes.utimens(path, timespec[0], timespec[1]);
            return 0;
        });
    }

    @Override
    public int setxattr(String path, String name, Pointer value, @size_t long size, int flags) {
        return -ErrorCodes.ENOSYS();
    }

    @Override
    public int getxattr(String path, String name, Pointer value, @size_t long size) {
        return -ErrorCodes.ENOSYS();
    }

    @Override
    public int listxattr(String path, Pointer list, @size_t long size) {
        return -ErrorCodes.ENOSYS();
    }

    @Override
    public int removexattr(String path, String name) {
        return -ErrorCodes.ENOSYS();
    }
}
