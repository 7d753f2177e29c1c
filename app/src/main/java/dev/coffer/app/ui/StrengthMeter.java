package dev.coffer.app.ui;

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.WipeableString;
import com.nulabinc.zxcvbn.Zxcvbn;
import java.util.List;
import java.util.Locale;

/**
 * Estimates how hard a passphrase is to guess with zxcvbn (score 0 to 4) and gives zxcvbn's own
 * warning in the UI's language. It measures a copy of the passphrase held in a single char[]
 * ({@link WipeableString}), which is wiped here after use, also when zxcvbn throws.
 *
 * <p>Not responsible for the minimum rules ({@link Passphrases}).
 */
public final class StrengthMeter {
    private final Zxcvbn zxcvbn;

    /** One zxcvbn for every meter: each new one loads its dictionaries again (0.1-0.5 s), and measuring only reads them. */
    private static final class Shared {
        static final Zxcvbn ZXCVBN = new Zxcvbn();
    }

    public StrengthMeter() {
        this(Shared.ZXCVBN);
    }

    /** With the given zxcvbn (tests: one that fails). */
    StrengthMeter(Zxcvbn zxcvbn) {
        this.zxcvbn = zxcvbn;
    }

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
        // A TextField hands out its live buffer, so zxcvbn gets a copy. WipeableString copies it char by
        // char into one char[] sized up front; a StringBuilder would start one byte a char and, at the
        // first char beyond Latin-1 (or on growing), move to a new array and leave the old one unwiped.
        WipeableString copy = new WipeableString(passphrase);
        try {
            Strength s = zxcvbn.measure(copy, contextWords);
            try {
                String warning = s.getFeedback().getWarning(locale);
                return new Estimate(s.getScore(), warning == null ? "" : warning);
            } finally {
                s.wipe(); // the pieces of the passphrase zxcvbn matched
            }
        } finally {
            copy.wipe(); // also when zxcvbn throws and leaves no Strength to wipe it
        }
    }
}
