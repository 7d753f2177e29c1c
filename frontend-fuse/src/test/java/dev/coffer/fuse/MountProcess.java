package dev.coffer.fuse;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Test helper run as a separate JVM: mounts {@code args[0]} at {@code args[1]}, prints "mounted",
 * and serves until killed. Killing it with SIGKILL leaves the stale mount that the next mount of
 * the same folder must clear.
 */
public final class MountProcess {
    private MountProcess() {}

    public static void main(String[] args) throws Exception {
        FuseMount m = FuseMount.mount(Path.of(args[0]), Path.of(args[1]), MountOptions.defaults(false));
        System.out.println("mounted");
        System.out.flush();
        m.awaitEnd(1, TimeUnit.DAYS);
    }
}
