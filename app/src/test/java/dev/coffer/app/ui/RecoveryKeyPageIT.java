package dev.coffer.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.ui.CreateVaultViewModel.Step;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.app.vaults.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javafx.scene.Parent;
import javafx.scene.input.Clipboard;
import javafx.scene.input.DataFormat;
import javafx.util.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The create wizard's recovery key page (TestFX, Monocle headless), with the time the copied words
 * stay on the clipboard shortened to {@link #DELAY_MILLIS}: Copy clicked again restarts the one
 * pending clear (it used to add a timer and a close handler per click), the words leave the
 * clipboard after the delay and when the wizard closes, unless something else was copied since,
 * and no node of the closed wizard still shows them.
 */
class RecoveryKeyPageIT {
    private static final String PASSPHRASE = "vinegar telescope umbrella";
    /**
     * The clear's delay. Copy is clicked again {@link #RECOPY_MILLIS} after the first copy (well before
     * the first clear was due) and the clipboard checked {@link #LATE_MILLIS} after the first clear was
     * due (time for a clear not restarted to have run), which is still well before the restarted one.
     */
    private static final long DELAY_MILLIS = 3000;
    private static final long RECOPY_MILLIS = 1800;
    private static final long LATE_MILLIS = 800;
    private static final int AWAIT_CLEAR_SECONDS = 10;

    @TempDir
    Path tmp;

    private final FxRobot robot = new FxRobot();
    private final FxBackground background = new FxBackground();
    private TestVaults t;
    private CreateVaultWizard wizard;
    private CreateVaultViewModel vm;
    private String key;

    @BeforeEach
    void openAtTheRecoveryKeyPage() throws Exception {
        FxToolkit.registerPrimaryStage();
        t = new TestVaults(tmp);
        Path home = Files.createDirectories(tmp.resolve("home"));
        vm = new CreateVaultViewModel(t.service, background, Messages.of(Locale.ENGLISH), home);
        wizard = Fx.call(() -> new CreateVaultWizard(vm, null, Theme.LIGHT, Duration.millis(DELAY_MILLIS)));
        Fx.run(wizard::show);
        Fx.run(() -> {
            vm.name().set("Taxes");
            vm.location().set(tmp.toString());
            vm.next();
            vm.next();
            vm.create(PASSPHRASE.toCharArray(), PASSPHRASE.toCharArray());
        });
        Fx.await("the recovery key page", 60, () -> vm.step().get() == Step.RECOVERY_KEY);
        key = Fx.call(() -> vm.recoveryKey().get());
        assertThat(key.split("\\s+")).hasSize(48);
        Fx.run(() -> Clipboard.getSystemClipboard().setContent(Map.of(DataFormat.PLAIN_TEXT, "before")));
    }

    @AfterEach
    void cleanUp() throws Exception {
        FxToolkit.cleanupStages();
        background.close();
        t.service.lockAll(true);
    }

    private static String clipboardText() throws Exception {
        return Fx.call(() -> Clipboard.getSystemClipboard().hasString() ? Clipboard.getSystemClipboard().getString() : null);
    }

    private boolean pending() throws Exception {
        return Fx.call(() -> wizard.recoveryClipboard().pending());
    }

    /** {@code condition} evaluated on the FX thread, for {@link Fx#await}. */
    private static boolean onFx(java.util.concurrent.Callable<Boolean> condition) {
        try {
            return Fx.call(condition);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void finish() {
        robot.clickOn("#wizard-written-down");
        robot.clickOn("#wizard-next");
        Fx.await("the wizard to close", 10, () -> !wizard.stage().isShowing());
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }

    @Test
    void copyClickedAgainRestartsTheOnePendingClear() throws Exception {
        robot.clickOn("#wizard-copy");
        long firstCopied = System.nanoTime(); // its clear was due DELAY_MILLIS after this at the latest
        assertThat(clipboardText()).isEqualTo(key);
        assertThat(pending()).isTrue();
        sleepUntil(firstCopied + RECOPY_MILLIS * 1_000_000L);
        for (int i = 0; i < 4; i++) {
            robot.clickOn("#wizard-copy"); // each restarts the clear: due DELAY_MILLIS after firstCopied + RECOPY_MILLIS at the earliest
        }
        assertThat(pending()).isTrue();
        sleepUntil(firstCopied + (DELAY_MILLIS + LATE_MILLIS) * 1_000_000L);
        assertThat(clipboardText()).as("the words after the first copy's delay, copied again since").isEqualTo(key);
        assertThat(pending()).isTrue();

        Fx.await("the words off the clipboard", AWAIT_CLEAR_SECONDS, () -> !onFx(() -> key.equals(clipboardText())));
        assertThat(clipboardText()).isNull();
        assertThat(pending()).isFalse();
        assertThat(Fx.call(() -> wizard.recoveryClipboard().holdsSecret())).isFalse();
    }

    @Test
    void closingTheWizardTakesTheWordsOffTheClipboardAndStopsTheClear() throws Exception {
        for (int i = 0; i < 3; i++) {
            robot.clickOn("#wizard-copy");
        }
        assertThat(clipboardText()).isEqualTo(key);
        Fx.run(wizard.stage()::close); // the window's close button: the page has no Cancel
        assertThat(clipboardText()).isNull();
        assertThat(pending()).as("a clear still pending after the wizard closed").isFalse();
        assertThat(Fx.call(() -> wizard.recoveryClipboard().holdsSecret())).isFalse();
    }

    @Test
    void somethingCopiedSinceStaysOnTheClipboard() throws Exception {
        robot.clickOn("#wizard-copy");
        robot.clickOn("#wizard-copy");
        Fx.run(() -> Clipboard.getSystemClipboard().setContent(Map.of(DataFormat.PLAIN_TEXT, "copied since")));
        Fx.await("the clear to run", AWAIT_CLEAR_SECONDS, () -> !onFx(() -> wizard.recoveryClipboard().pending()));
        assertThat(clipboardText()).isEqualTo("copied since");
        finish();
        assertThat(clipboardText()).isEqualTo("copied since");
    }

    @Test
    void noNodeOfTheFinishedWizardShowsTheWords() throws Exception {
        Set<String> words = new java.util.HashSet<>(List.of(key.split("\\s+")));
        Parent root = wizard.stage().getScene().getRoot();
        assertThat(Fx.call(() -> Fx.textsShown(root))).as("the words on their page").containsAll(words);
        finish();
        List<String> shown = Fx.call(() -> Fx.textsShown(root));
        assertThat(shown).doesNotContainAnyElementsOf(words);
        assertThat(shown).noneMatch(s -> s.contains(key));
    }
}
