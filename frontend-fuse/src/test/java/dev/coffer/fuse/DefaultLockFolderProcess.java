package dev.coffer.fuse;

import java.nio.file.Path;

/**
 * Test helper run as a separate JVM (with the environment and the temp and home folders a test
 * chooses): takes the mount point lock of {@code args[0]} for user {@code args[1]} in the default
 * lock folders, prints "locked" and releases it, or prints "refused" and why.
 */
public final class DefaultLockFolderProcess {
    private DefaultLockFolderProcess() {}

    public static void main(String[] args) {
        try {
            MountPointLock.acquire(Path.of(args[0]), Long.parseLong(args[1])).close();
            System.out.println("locked");
        } catch (Exception e) {
            System.out.println("refused " + e.getMessage());
        }
        System.out.flush();
    }
}
