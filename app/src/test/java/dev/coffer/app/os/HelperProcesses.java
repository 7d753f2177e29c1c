package dev.coffer.app.os;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Waits for helper processes a test started (a bus, a keyring, Xvfb, a tray) to be ready, failing fast if one died. */
final class HelperProcesses {
    private HelperProcesses() {}

    /** A readiness condition that may run a command. */
    interface Check {
        boolean holds() throws IOException, InterruptedException;
    }

    /**
     * Polls {@code check} every 100 ms for up to 20 s; an AssertionError names {@code what} (and
     * {@code hint}, e.g. where the logs are) when one of {@code processes} exits or time runs out.
     */
    static void await(String what, List<Process> processes, String hint, Check check) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!check.holds()) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new AssertionError(what + ": " + p.info().command().orElse("a helper") + " exited with "
                            + p.exitValue() + hint);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 20 s waiting for " + what + hint);
            }
            Thread.sleep(100);
        }
    }
}
