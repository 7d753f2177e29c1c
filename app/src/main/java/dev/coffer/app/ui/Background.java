package dev.coffer.app.ui;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs long work (scrypt, mounting, unmounting) away from the UI thread and hands the outcome back
 * on it. The app uses {@link FxBackground} ({@code javafx.concurrent.Task}); ViewModel tests run
 * the work on the calling thread.
 *
 * <p>Not responsible for what the work is.
 */
public interface Background {
    /** Runs {@code work}; then {@code onSuccess} or {@code onFailure}, on the UI thread. */
    <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Exception> onFailure);
}
