package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.WipeableString;
import com.nulabinc.zxcvbn.Zxcvbn;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The strength meter leaves no copy of the passphrase behind, whether zxcvbn measures it or fails. */
class StrengthMeterTest {
    private static final String PASSPHRASE = "vinegar telescope umbrella";
    /** Starts in Latin-1: a StringBuilder copy would leave "vinegar " behind in its one-byte array. */
    private static final String BEYOND_LATIN1 = "vinegar \u2615 telescope \u00fcmbrella \u0436";

    /** A zxcvbn that keeps what it was given to measure, and then fails or measures it. */
    private static final class Recording extends Zxcvbn {
        private final boolean fail;
        CharSequence measured;

        Recording(boolean fail) {
            this.fail = fail;
        }

        @Override
        public Strength measure(CharSequence password, List<String> sanitizedInputs) {
            measured = password;
            if (fail) {
                throw new IllegalStateException("zxcvbn failed");
            }
            return super.measure(password, sanitizedInputs);
        }
    }

    @Test
    void theCopyMeasuredIsWipedAfterUse() {
        Recording zxcvbn = new Recording(false);
        StrengthMeter.Estimate e = new StrengthMeter(zxcvbn).measure(PASSPHRASE, Locale.ENGLISH, List.of("Taxes"));
        assertThat(e.score()).isBetween(0, 4);
        assertWiped(zxcvbn.measured);
    }

    @Test
    void aPassphraseBeyondLatin1IsMeasuredInOneArrayThatIsWiped() {
        Recording zxcvbn = new Recording(false);
        StringBuilder typed = new StringBuilder(BEYOND_LATIN1);
        new StrengthMeter(zxcvbn).measure(typed, Locale.ENGLISH, List.of());
        assertWiped(zxcvbn.measured);
        assertThat(typed.toString()).as("what was typed is left alone").isEqualTo(BEYOND_LATIN1);
    }

    @Test
    void theCopyIsWipedWhenZxcvbnThrows() {
        Recording zxcvbn = new Recording(true);
        StringBuilder typed = new StringBuilder(PASSPHRASE);
        assertThatThrownBy(() -> new StrengthMeter(zxcvbn).measure(typed, Locale.ENGLISH, List.of("Taxes")))
                .isInstanceOf(IllegalStateException.class).hasMessage("zxcvbn failed");
        assertThat(zxcvbn.measured).as("a copy, not the field's own buffer").isNotSameAs(typed);
        assertWiped(zxcvbn.measured);
        assertThat(typed.toString()).as("what was typed is left alone").isEqualTo(PASSPHRASE);
    }

    /**
     * The copy is a WipeableString: its one char[] is sized up front and filled char by char (no
     * Latin-1 form to inflate, no growth leaving old arrays behind), and wiping overwrites it.
     */
    private static void assertWiped(CharSequence copy) {
        assertThat(copy).as("the copy measured").isInstanceOf(WipeableString.class);
        assertThat(((WipeableString) copy).isWiped()).as("the copy measured is wiped").isTrue();
        assertThat(copy).isEmpty();
    }
}
