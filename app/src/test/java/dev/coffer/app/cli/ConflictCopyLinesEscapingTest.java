package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.core.nio.ConflictCopy;
import org.junit.jupiter.api.Test;

/** Bidirectional controls and Unicode line separators in a name are escaped before they reach the terminal. */
class ConflictCopyLinesEscapingTest {
    @Test
    void bidiOverridesAndLineSeparatorsInANameAreEscaped() {
        String line = ConflictCopyLines.line(ConflictCopy.kept("/invoice\u202Efdp.exe", "/invoice\u202Efdp.exe (Conflict 1)"));
        assertThat(line).as("RLO reverses the rest of the line on a bidi terminal (VTE)").doesNotContain("\u202E");
        String sep = ConflictCopyLines.line(ConflictCopy.notKept("/a\u2028b"));
        assertThat(sep).doesNotContain("\u2028");
    }
}
