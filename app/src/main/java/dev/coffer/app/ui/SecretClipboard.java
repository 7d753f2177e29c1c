package dev.coffer.app.ui;

import javafx.animation.Animation;
import javafx.animation.PauseTransition;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.util.Duration;

/**
 * Puts a secret (the recovery words) on the system clipboard and takes it off again after a delay,
 * or earlier when told to (its window closes), in both cases only if the clipboard still holds it:
 * something the person copied since stays. Copying again restarts the one timer instead of adding
 * another: each copy used to add a timer and a close handler, all of them holding the secret.
 *
 * <p>Not responsible for what the secret is or when its window closes. On the FX thread.
 */
final class SecretClipboard {
    /** Long enough to paste into a password manager, short enough not to linger. */
    static final Duration DEFAULT_DELAY = Duration.seconds(60);

    private final PauseTransition timer;
    /** What this put on the clipboard, until it is taken off (or the clipboard changed). */
    private String copied;

    SecretClipboard(Duration delay) {
        timer = new PauseTransition(delay);
        timer.setOnFinished(e -> clear());
    }

    /** Puts {@code secret} on the clipboard and (re)starts the delay after which it is taken off. */
    void copy(String secret) {
        ClipboardContent content = new ClipboardContent();
        content.putString(secret);
        Clipboard.getSystemClipboard().setContent(content);
        copied = secret;
        timer.playFromStart();
    }

    /** Takes the secret off the clipboard now if it is still there, stops the timer and forgets the secret. */
    void clear() {
        timer.stop();
        Clipboard clipboard = Clipboard.getSystemClipboard();
        if (copied != null && clipboard.hasString() && copied.equals(clipboard.getString())) {
            clipboard.clear();
        }
        copied = null;
    }

    /** True while a clear is pending (for tests: there is never more than this one). */
    boolean pending() {
        return timer.getStatus() == Animation.Status.RUNNING;
    }

    /** True while this holds a secret it copied (for tests: nothing is held after {@link #clear}). */
    boolean holdsSecret() {
        return copied != null;
    }
}
