package dev.coffer.fuse;

import java.nio.file.Path;

/**
 * Test helper run as a separate JVM (with the environment and the temp and home folders a test
 * chooses): takes the mount point lock of {@code args[0]} for user {@code args[1]} in the default
 * lock folders, prints "locked" and releases it, or prints "refused" and why. With {@code args[2]}
 * "hold" it keeps the lock until killed instead.
 */
public final class DefaultLockFolderProcess {
    private DefaultLockFolderProcess() {}

    public static void main(String[] args) throws InterruptedException {
        boolean hold = args.length > 2 && args[2].equals("hold");
        try {
            MountPointLock lock = MountPointLock.acquire(Path.of(args[0]), Long.parseLong(args[1]));
            if (!hold) {
                lock.close();
            }
            System.out.println("locked");
        } catch (Exception e) {
            System.out.println("refused " + e.getMessage());
        }
        System.out.flush();
        if (hold) {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
