package dev.coffer.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Holds the "background" work until {@link #release()} runs it on the calling thread: a ViewModel
 * test can act (close, leave a page) while the work is still running.
 */
final class HeldBackground implements Background {
    private final List<Runnable> held = new ArrayList<>();

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Exception> onFailure) {
        held.add(() -> new SyncBackground().run(work, onSuccess, onFailure));
    }

    /** Runs the work held so far, in order, with its handlers; returns how many. */
    int release() {
        List<Runnable> now = new ArrayList<>(held);
        held.clear();
        now.forEach(Runnable::run);
        return now.size();
    }
}
