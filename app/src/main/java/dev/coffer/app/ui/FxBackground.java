package dev.coffer.app.ui;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javafx.concurrent.Task;

/**
 * {@link Background} on JavaFX: each piece of work is a {@link Task} on a small pool of daemon
 * threads; its success and failure handlers run on the FX thread.
 *
 * <p>Not responsible for progress reporting (scrypt has no progress to report; the views show an
 * indeterminate indicator while a ViewModel is busy).
 */
public final class FxBackground implements Background, AutoCloseable {
    private final ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "coffer-background");
        t.setDaemon(true);
        return t;
    });

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Exception> onFailure) {
        Task<T> task = new Task<>() {
            @Override
            protected T call() throws Exception {
                return work.call();
            }
        };
        task.setOnSucceeded(e -> onSuccess.accept(task.getValue()));
        task.setOnFailed(e -> {
            Throwable t = task.getException();
            onFailure.accept(t instanceof Exception ex ? ex : new IllegalStateException(t));
        });
        pool.execute(task);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
