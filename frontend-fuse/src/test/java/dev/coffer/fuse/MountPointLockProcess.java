package dev.coffer.fuse;

import java.nio.file.Path;

/**
 * Test helper run as a separate JVM: takes the mount point lock of {@code args[0]} (lock files in
 * {@code args[1]}, user {@code args[2]}), prints "locked", and holds it until killed.
 */
public final class MountPointLockProcess {
    private MountPointLockProcess() {}

    public static void main(String[] args) throws Exception {
        MountPointLock lock = MountPointLock.acquire(Path.of(args[0]), Path.of(args[1]), Long.parseLong(args[2]));
        System.out.println("locked");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
        lock.close();
    }
}
