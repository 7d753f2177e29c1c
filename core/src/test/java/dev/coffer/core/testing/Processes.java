package dev.coffer.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Process checks shared by tests that kill the tools they start (mount helpers, fake commands). */
public final class Processes {
    private Processes() {}

    /** True once {@code pid} is gone or a zombie (killed, waiting for init to reap it), polling up to 5 s. */
    public static boolean deadWithin5s(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            String state;
            try {
                String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
                state = s.substring(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3);
            } catch (IOException gone) {
                return true;
            }
            if (state.equals("Z")) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
    }
}
