package dev.coffer.fuse;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import jnr.ffi.Pointer;

/**
 * Test helper run as a separate JVM: mounts {@code args[0]} at {@code args[1]}, prints "mounted",
 * and serves until killed. It installs no shutdown hook of its own, as a program between mounting
 * and taking the mount over. Killing it with SIGKILL leaves the stale mount that the next mount of
 * the same folder must clear. With {@code slow-init} as {@code args[2]}, the kernel's INIT is
 * answered 3 s late, after printing "kernel-mounted": a signal then comes while the mount is
 * starting, the kernel's mount made and {@link FuseMount#mount} not yet returned. With
 * {@code stalled-init}, 20 s late.
 */
public final class MountProcess {
    private MountProcess() {}

    public static void main(String[] args) throws Exception {
        String init = args.length > 2 ? args[2] : "";
        long initDelayMillis = init.equals("slow-init") ? 3_000 : init.equals("stalled-init") ? 20_000 : 0;
        FuseMount m = FuseMount.mount(Path.of(args[0]), Path.of(args[1]), MountOptions.defaults(false),
                initDelayMillis > 0 ? (root, uid, gid) -> new SlowInitAdapter(root, uid, gid, initDelayMillis)
                        : FuseAdapter::new);
        System.out.println("mounted");
        System.out.flush();
        m.awaitEnd(1, TimeUnit.DAYS);
    }

    /** Answers INIT late. */
    private static final class SlowInitAdapter extends FuseAdapter {
        private final long delayMillis;

        SlowInitAdapter(Path root, long uid, long gid, long delayMillis) {
            super(root, uid, gid);
            this.delayMillis = delayMillis;
        }

        @Override
        public Pointer init(Pointer conn) {
            System.out.println("kernel-mounted");
            System.out.flush();
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.init(conn);
        }
    }
}
