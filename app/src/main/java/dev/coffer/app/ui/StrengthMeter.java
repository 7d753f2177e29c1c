package dev.coffer.app.ui;

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.Zxcvbn;
import java.util.List;
import java.util.Locale;

/**
 * Estimates how hard a passphrase is to guess with zxcvbn (score 0 to 4) and gives zxcvbn's own
 * warning in the UI's language. It measures a copy of the passphrase, which zxcvbn wipes after use.
 *
 * <p>Not responsible for the minimum rules ({@link Passphrases}).
 */
public final class StrengthMeter {
    private final Zxcvbn zxcvbn = new Zxcvbn();

    /**
     * An estimate.
     *
     * @param score   0 (too guessable) to 4 (very unguessable)
     * @param warning zxcvbn's warning, or empty
     */
    public record Estimate(int score, String warning) {}

    public Estimate measure(CharSequence passphrase, Locale locale, List<String> contextWords) {
        if (passphrase.length() == 0) {
            return new Estimate(0, "");
        }
        // zxcvbn wipes what it measured; a TextField hands out its live buffer, so it gets a copy.
        StringBuilder copy = new StringBuilder(passphrase.length()).append(passphrase);
        Strength s = zxcvbn.measure(copy, contextWords);
        try {
            String warning = s.getFeedback().getWarning(locale);
            return new Estimate(s.getScore(), warning == null ? "" : warning);
        } finally {
            s.wipe();
        }
    }
}
