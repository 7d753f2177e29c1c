package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.Zxcvbn;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The strength meter leaves no copy of the passphrase behind, whether zxcvbn measures it or fails. */
class StrengthMeterTest {
    private static final String PASSPHRASE = "vinegar telescope umbrella";

    /** A zxcvbn that keeps what it was given to measure, and then fails or measures it. */
    private static final class Recording extends Zxcvbn {
        private final boolean fail;
        StringBuilder measured;

        Recording(boolean fail) {
            this.fail = fail;
        }

        @Override
        public Strength measure(CharSequence password, List<String> sanitizedInputs) {
            measured = (StringBuilder) password;
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
    void theCopyIsWipedWhenZxcvbnThrows() {
        Recording zxcvbn = new Recording(true);
        StringBuilder typed = new StringBuilder(PASSPHRASE);
        assertThatThrownBy(() -> new StrengthMeter(zxcvbn).measure(typed, Locale.ENGLISH, List.of("Taxes")))
                .isInstanceOf(IllegalStateException.class).hasMessage("zxcvbn failed");
        assertThat(zxcvbn.measured).as("a copy, not the field's own buffer").isNotSameAs(typed);
        assertWiped(zxcvbn.measured);
        assertThat(typed.toString()).as("what was typed is left alone").isEqualTo(PASSPHRASE);
    }

    /** zxcvbn's own wipe (WipeableString.wipeIfPossible) overwrites a StringBuilder's characters, then empties it. */
    private static void assertWiped(StringBuilder copy) {
        assertThat(copy).as("the copy measured").isNotNull().isEmpty();
    }
}
