package dev.coffer.app.ui;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** Runs the "background" work on the calling thread: ViewModel tests see the outcome at once. */
final class SyncBackground implements Background {
    int runs;

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Exception> onFailure) {
        runs++;
        T result;
        try {
            result = work.call();
        } catch (Exception e) {
            onFailure.accept(e);
            return;
        }
        onSuccess.accept(result);
    }
}
