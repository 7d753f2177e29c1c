package dev.coffer.core.fuzz;

import static org.assertj.core.api.Assertions.fail;

import java.util.HexFormat;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The property every fuzz test checks: code fed hostile input either returns or throws one of the
 * documented checked exceptions. Anything else fails the test, naming the input: an unchecked
 * exception, an {@link Error} (OutOfMemoryError included), or no answer within the time limit (a
 * hang, or work that grows with an attacker-chosen number).
 *
 * <p>The body runs on a separate daemon thread so that a hang is reported instead of blocking the
 * build. Not responsible for generating inputs ({@link Mutations}).
 */
public final class CleanFailure {
    /** Generous for one parse or decryption on a loaded 2-core CI machine; a hang is minutes. */
    public static final long TIME_LIMIT_MILLIS = 5_000;
    private static final ExecutorService RUNNER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-body");
        t.setDaemon(true);
        return t;
    });

    /** Code under test; may throw anything. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private CleanFailure() {}

    /**
     * Runs {@code body}; fails unless it returns or throws an instance of one of {@code allowed}.
     *
     * @return the allowed exception thrown, or null if the body returned
     */
    @SafeVarargs
    public static Throwable expect(Object input, Body body, Class<? extends Exception>... allowed) {
        Future<Throwable> outcome = RUNNER.submit(() -> {
            try {
                body.run();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        Throwable thrown;
        try {
            thrown = outcome.get(TIME_LIMIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            outcome.cancel(true);
            return fail("no answer within %d ms (hang?) for input %s", TIME_LIMIT_MILLIS, show(input));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        } catch (ExecutionException e) {
            return fail("runner failed", e);
        }
        if (thrown == null) {
            return null;
        }
        StringBuilder names = new StringBuilder();
        for (Class<? extends Exception> c : allowed) {
            if (c.isInstance(thrown)) {
                return thrown;
            }
            names.append(' ').append(c.getSimpleName());
        }
        throw new AssertionError("input " + show(input) + " caused " + thrown + ", not one of" + names, thrown);
    }

    /** {@code text} with every character outside printable ASCII as a Java escape, so that reports stay readable. */
    public static String escaped(String text) {
        StringBuilder sb = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        return sb.toString();
    }

    /** A readable, bounded rendering of an input for failure messages. */
    public static String show(Object input) {
        String s;
        if (input instanceof byte[] b) {
            s = b.length + " bytes: " + HexFormat.of().formatHex(b, 0, Math.min(b.length, 200));
        } else {
            s = escaped(String.valueOf(input));
        }
        return s.length() <= 600 ? s : s.substring(0, 600) + "... (" + s.length() + " chars)";
    }
}
