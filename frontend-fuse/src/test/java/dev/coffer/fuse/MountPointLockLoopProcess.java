package dev.coffer.fuse;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test helper run as a separate JVM: for {@code args[3]} milliseconds, takes and releases the mount
 * point lock of {@code args[0]} (lock files in {@code args[1]}, user {@code args[2]}) as fast as it
 * can, and while holding it makes the file {@code args[4]}, which must not exist (another process
 * holding the lock too has made it), and removes it again. Prints "held N times", or "both held" and
 * exits 3.
 */
public final class MountPointLockLoopProcess {
    private MountPointLockLoopProcess() {}

    public static void main(String[] args) throws Exception {
        Path mnt = Path.of(args[0]);
        Path locks = Path.of(args[1]);
        long uid = Long.parseLong(args[2]);
        long end = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000;
        Path holder = Path.of(args[4]);
        long held = 0;
        while (System.nanoTime() - end < 0) {
            MountPointLock lock;
            try {
                lock = MountPointLock.acquire(mnt, locks, uid);
            } catch (MountPointException busy) {
                continue;
            }
            try {
                Files.createFile(holder);
            } catch (FileAlreadyExistsException e) {
                System.out.println("both held");
                System.out.flush();
                System.exit(3);
            }
            held++;
            Files.delete(holder);
            lock.close();
        }
        System.out.println("held " + held + " times");
    }
}
