// Bench tool (not shipped): how much of a FUSE request is libfuse 2's dispatch and jnr-ffi's up-call.
// Mounts with libfuse's fuse_mount and answers /dev/fuse itself (raw, raw0: no work), or mounts
// Coffer's frontend over a plain folder (plain). Run with raw-dispatch.sh; see docs/performance.md.
import dev.coffer.fuse.FuseMount;
import dev.coffer.fuse.MountOptions;
import java.nio.file.*;
import java.nio.file.attribute.PosixFileAttributes;
import jnr.ffi.*;

/** Scratch: the glue cost per request, coffer's libfuse-2 path over a plain folder against a raw /dev/fuse server in Java. */
public class RawBench {
    public interface Fuse2 {
        Pointer fuse_mount(String mountpoint, Pointer args);
        int fuse_chan_fd(Pointer ch);
        void fuse_unmount(String mountpoint, Pointer ch);
    }
    public interface C {
        long read(int fd, Pointer buf, long n);
        long write(int fd, Pointer buf, long n);
    }
    static C libc;
    static int fd;
    static Path root; static boolean work = true;

    public static void main(String[] a) throws Exception {
        root = Paths.get(a[1]);
        Path mnt = Paths.get(a[2]);
        if (a[0].equals("raw0")) work = false;
        if (a[0].equals("plain")) {
            FuseMount m = FuseMount.mount(root, mnt, MountOptions.defaults(false));
            System.out.println("mounted");
            Thread.sleep(Long.MAX_VALUE);
        }
        Fuse2 fuse = LibraryLoader.create(Fuse2.class).load("fuse");
        libc = LibraryLoader.create(C.class).load("c");
        jnr.ffi.Runtime rt = jnr.ffi.Runtime.getSystemRuntime();
        String[] argv = {"raw", "-o", "fsname=raw,subtype=raw"};
        Pointer av = Memory.allocateDirect(rt, 8 * (argv.length + 1));
        for (int i = 0; i < argv.length; i++) {
            byte[] b = (argv[i] + "\0").getBytes();
            Pointer s = Memory.allocateDirect(rt, b.length);
            s.put(0, b, 0, b.length);
            av.putPointer(8L * i, s);
        }
        av.putPointer(8L * argv.length, null);
        Pointer args = Memory.allocateDirect(rt, 16);
        args.putInt(0, argv.length);
        args.putPointer(8, av);
        Pointer ch = fuse.fuse_mount(mnt.toString(), args);
        fd = fuse.fuse_chan_fd(ch);
        System.out.println("mounted fd " + fd);
        int n = Integer.parseInt(a.length > 3 ? a[3] : "4");
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            ts[i] = new Thread(() -> { Worker w = new Worker(rt); while (w.one()) {} }, "raw-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        System.exit(0);
    }

    static final class Worker {
        final Pointer in, out;
        Worker(jnr.ffi.Runtime rt) { in = Memory.allocateDirect(rt, 135168); out = Memory.allocateDirect(rt, 4096); }
        boolean one() {
            long r = libc.read(fd, in, 135168);
            if (r <= 0) { int e = LastError.getLastError(jnr.ffi.Runtime.getSystemRuntime()); return e == 4 || e == 11 || (r == 0 ? false : e != 19); }
            int opcode = in.getInt(4);
            long unique = in.getLong(8);
            long node = in.getLong(16);
            switch (opcode) {
                case 26: { // INIT
                    out.setMemory(0, 80, (byte) 0);
                    out.putInt(16, 7); out.putInt(20, 26); out.putInt(24, in.getInt(40 + 8));
                    out.putInt(28, 0); out.putShort(32, (short) 12); out.putShort(34, (short) 9);
                    out.putInt(36, 131072); out.putInt(40, 1);
                    reply(unique, 0, 64); return true;
                }
                case 1: { // LOOKUP
                    String name = in.getString(40);
                    if (!work) { reply(unique, -2, 0); return true; }
                    try { Files.readAttributes(root.resolve(name), PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS); reply(unique, -5, 0); }
                    catch (NoSuchFileException e) { reply(unique, -2, 0); }
                    catch (Exception e) { reply(unique, -5, 0); }
                    return true;
                }
                case 3: { // GETATTR
                    out.setMemory(16, 104, (byte) 0);
                    out.putLong(16, 10);
                    int b = 32; out.putLong(b, 1); out.putInt(b + 60, 040755); out.putInt(b + 64, 2);
                    reply(unique, 0, 104); return true;
                }
                case 17: { // STATFS
                    out.setMemory(16, 80, (byte) 0);
                    out.putInt(16 + 40, 4096); out.putInt(16 + 44, 255); out.putInt(16 + 48, 4096);
                    reply(unique, 0, 80); return true;
                }
                case 27: out.setMemory(16, 16, (byte) 0); reply(unique, 0, 16); return true; // OPENDIR
                case 28: case 29: reply(unique, 0, 0); return true; // READDIR (empty), RELEASEDIR
                case 2: case 42: case 36: return true; // FORGET, BATCH_FORGET, INTERRUPT: no reply
                case 38: reply(unique, 0, 0); return false; // DESTROY
                default: reply(unique, -38, 0); return true; // ENOSYS
            }
        }
        void reply(long unique, int error, int body) {
            out.putInt(0, 16 + body); out.putInt(4, error); out.putLong(8, unique);
            libc.write(fd, out, 16 + body);
        }
    }
}
