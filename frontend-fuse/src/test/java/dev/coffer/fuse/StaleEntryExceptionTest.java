package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** ESTALE for an open of a vanished file only where the kernel retries it. */
class StaleEntryExceptionTest {
    @Test
    void linuxGetsEstaleWhichItsVfsRetriesAfterANewLookup() {
        NoSuchFileException gone = new NoSuchFileException("/note.txt");
        NoSuchFileException answered = StaleEntryException.forOpenOf(gone, "Linux");
        assertThat(answered).isInstanceOf(StaleEntryException.class).hasCause(gone);
        assertThat(answered.getMessage()).doesNotContain("note.txt");
    }

    @Test
    void macosAndWindowsKeepEnoentWhichMacFuseAnswersByDroppingItsCachedNode() {
        NoSuchFileException gone = new NoSuchFileException("/note.txt");
        assertThat(StaleEntryException.forOpenOf(gone, "Mac OS X")).isSameAs(gone);
        assertThat(StaleEntryException.forOpenOf(gone, "Windows 11")).isSameAs(gone);
        assertThat(StaleEntryException.forOpenOf(gone, "FreeBSD")).isSameAs(gone);
    }
}
