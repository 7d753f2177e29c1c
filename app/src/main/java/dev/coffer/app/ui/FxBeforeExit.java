package dev.coffer.app.ui;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;

/**
 * Runs an action on the FX thread from a shutdown hook and waits for it, at most a bound: on SIGTERM
 * the FX thread may be gone, busy or itself waiting for the JVM to exit, and a hook that hangs would
 * keep the shutdown (and the hooks after it, which lock the vaults) from finishing.
 *
 * <p>Not responsible for what the action does.
 */
final class FxBeforeExit {
    private FxBeforeExit() {}

    /** True if {@code action} ran (or failed) on the FX thread within {@code bound}; false if it did not. */
    static boolean run(Runnable action, Duration bound) {
        if (Platform.isFxApplicationThread()) {
            action.run();
            return true;
        }
        CountDownLatch done = new CountDownLatch(1);
        try {
            Platform.runLater(() -> {
                try {
                    action.run();
                } finally {
                    done.countDown();
                }
            });
            return done.await(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            return false; // the toolkit never started: there is nothing on screen to wipe
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
