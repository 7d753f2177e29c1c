package dev.coffer.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.coffer.app.LogConfigurator;
import dev.coffer.app.os.LogFile;
import dev.coffer.app.vaults.TestVaults;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.nio.ConflictCopy;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The terminal of {@code coffer mount} and {@code coffer serve} for one conflict copy: the command's
 * named line alone, not core's nameless WARN before it as well; and that WARN still on the terminal
 * for a file system nobody listens to, and in a log file beside the terminal. The terminal is System.err, where the log goes
 * ({@code LogConfigurator}), and the command's stderr, one stream as in the real process.
 */
class ConflictCopyTerminalTest {
    private static final String NAMELESS_WARN = "coffer: WARN an open file was replaced or deleted underneath by another"
            + " program; its last content was kept as a conflict copy";

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    private final PrintStream terminalStream = new PrintStream(terminal, true, StandardCharsets.UTF_8);
    private PrintStream systemErr;

    @BeforeEach
    void redirectStderr() {
        terminalAsConfigured();
        systemErr = System.err;
        System.setErr(terminalStream);
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(systemErr);
        terminalAsConfigured();
    }

    /** Drops what an earlier test in this JVM kept off the terminal: each test starts as a new process does. */
    private static void terminalAsConfigured() {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.getAppender("stderr").clearAllFilters();
        }
    }

    @Test
    void aCopyTheCommandNamesIsOneLineOnTheTerminal() throws Exception {
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = create(vault)) {
            ConflictCopyLines.printTo(fs, terminalStream); // what mount and serve do
            TestVaults.orphanedWriter(fs.getPath("/"), vault, "/docs/report.txt", "written here").close();
        }
        assertThat(terminal.toString(StandardCharsets.UTF_8)).isEqualTo("coffer: WARN \"/docs/report.txt\" was changed here while "
                + "another device replaced or deleted it; what was written here is kept as \"/docs/report.txt (Conflict 1)\""
                + System.lineSeparator());
    }

    @Test
    void withDebugTheTerminalIsTheWholeLogAndShowsCoresLineToo() throws Exception {
        LogConfigurator.enableDebug();
        try {
            Path vault = tmp.resolve("v");
            try (CofferFileSystem fs = create(vault)) {
                ConflictCopyLines.printTo(fs, terminalStream);
                TestVaults.orphanedWriter(fs.getPath("/"), vault, "/docs/report.txt", "written here").close();
            }
        } finally {
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(LogConfigurator.COFFER_LOGGERS)).setLevel(null);
        }
        assertThat(terminal.toString(StandardCharsets.UTF_8).lines()).contains(NAMELESS_WARN)
                .anyMatch(l -> l.startsWith("coffer: WARN \"/docs/report.txt\" was changed here"));
    }

    @Test
    void withoutAListenerCoresNamelessWarnStillReachesTheTerminal() throws Exception {
        LogConfigurator.keepOffTerminal(ConflictCopy.TOLD_BY_NAME); // as in a process where a command printed copies
        Path vault = tmp.resolve("v");
        try (CofferFileSystem fs = create(vault)) {
            TestVaults.orphanedWriter(fs.getPath("/"), vault, "/docs/report.txt", "written here").close();
        }
        assertThat(terminal.toString(StandardCharsets.UTF_8)).isEqualTo(NAMELESS_WARN + System.lineSeparator());
    }

    @Test
    void aLogFileStillGetsTheWarnKeptOffTheTerminal() throws Exception {
        Path config = java.nio.file.Files.createDirectory(tmp.resolve("config"));
        LogFile.start(config, false); // the GUI's log; the GUI itself keeps nothing off its stderr
        try {
            LogConfigurator.keepOffTerminal(ConflictCopy.TOLD_BY_NAME);
            Path vault = tmp.resolve("v");
            List<ConflictCopy> told = new CopyOnWriteArrayList<>();
            try (CofferFileSystem fs = create(vault)) {
                fs.onConflictCopies(told::add);
                TestVaults.orphanedWriter(fs.getPath("/"), vault, "/docs/report.txt", "written here").close();
            }
            assertThat(told).hasSize(1);
            assertThat(terminal.toString(StandardCharsets.UTF_8)).isEmpty();
            assertThat(java.nio.file.Files.readString(config.resolve(LogFile.NAME)))
                    .contains("WARN").contains(NAMELESS_WARN.substring("coffer: WARN ".length())).doesNotContain("report");
        } finally {
            if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
                root.getAppender("file").stop();
                root.detachAppender("file");
            }
        }
    }

    private static CofferFileSystem create(Path vault) throws Exception {
        VaultCreationOptions defaults = VaultCreationOptions.defaults();
        return CofferFileSystems.create(vault, "pass phrase".toCharArray(),
                new VaultCreationOptions(defaults.cipherCombo(), 1 << 14, defaults.shorteningThreshold()));
    }
}
