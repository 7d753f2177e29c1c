package dev.coffer.core.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import dev.coffer.core.nio.CofferFileSystem;
import dev.coffer.core.nio.CofferFileSystems;
import dev.coffer.core.vault.CipherCombo;
import dev.coffer.core.vault.InvalidPassphraseException;
import dev.coffer.core.vault.UnlockedVault;
import dev.coffer.core.vault.VaultAccess;
import dev.coffer.core.vault.VaultCreationOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * Logs at the default level (WARN, as the app's LogConfigurator sets it), at INFO and even at DEBUG never contain
 * cleartext names, the passphrase or key bytes, during a realistic workload that also makes core
 * warn (damaged folder pointer, incomplete entry, conflict copies, a damaged file read, a wrong
 * passphrase). Messages of exceptions that reach the user never contain the passphrase or key bytes.
 */
class NoSecretsInLogsTest {
    private static final String PASSPHRASE = "Tr0ub4dor-XYZZY-passphrase";
    private static final List<String> NAMES = List.of("secret-plan-alpha.txt", "Confidential-Folder-QX", "renamed-secret-beta.txt",
            "damaged-gamma.bin", "inner-delta.doc", "long-" + "epsilon".repeat(25), "conflicted-zeta.txt");

    @TempDir
    Path tmp;

    private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
    private Logger root;
    private Level levelBefore;

    @BeforeEach
    void capture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        levelBefore = root.getLevel();
        captured.setContext(context);
        captured.start();
        root.addAppender(captured);
    }

    @AfterEach
    void release() {
        root.detachAppender(captured);
        root.setLevel(levelBefore);
    }

    @ParameterizedTest
    @ValueSource(strings = {"WARN", "INFO", "DEBUG"})
    void aRealisticWorkloadLogsNoNamesPassphraseOrKeys(String level) throws IOException {
        root.setLevel(Level.toLevel(level));
        Path vault = tmp.resolve("vault");
        List<String> userMessages = new ArrayList<>();
        try (CofferFileSystem fs = CofferFileSystems.create(vault, PASSPHRASE.toCharArray(),
                new VaultCreationOptions(CipherCombo.SIV_XTSHMAC, 1 << 14, 220))) {
            Files.createDirectory(fs.getPath("/" + NAMES.get(1)));
            Files.writeString(fs.getPath("/" + NAMES.get(0)), "plan");
            Files.writeString(fs.getPath("/" + NAMES.get(1) + "/" + NAMES.get(4)), "inner");
            Files.write(fs.getPath("/" + NAMES.get(3)), new byte[9000]);
            Files.writeString(fs.getPath("/" + NAMES.get(5)), "long");
            Files.writeString(fs.getPath("/" + NAMES.get(6)), "original");
            Files.move(fs.getPath("/" + NAMES.get(0)), fs.getPath("/" + NAMES.get(2)));
        }
        Path storage = rootStorage(vault);
        damage(storage);
        try (CofferFileSystem fs = CofferFileSystems.open(vault, PASSPHRASE.toCharArray(), false)) {
            try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
                assertThat(s.count()).isGreaterThan(3);
            }
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/" + NAMES.get(3))))
                    .isInstanceOf(IOException.class)
                    .satisfies(e -> userMessages.add(e.getMessage()));
            assertThatThrownBy(() -> Files.delete(fs.getPath("/" + NAMES.get(1))))
                    .isInstanceOf(IOException.class)
                    .satisfies(e -> userMessages.add(e.getMessage()));
        }
        assertThatThrownBy(() -> CofferFileSystems.open(vault, "wrong passphrase".toCharArray(), false))
                .isInstanceOf(InvalidPassphraseException.class)
                .satisfies(e -> userMessages.add(e.getMessage()));

        List<String> secrets = new ArrayList<>(NAMES);
        secrets.add(PASSPHRASE);
        try (UnlockedVault unlocked = VaultAccess.unlock(vault, PASSPHRASE.toCharArray())) {
            byte[] m = unlocked.masterKey().copyBytes();
            byte[] siv = unlocked.masterKey().derive("coffer/siv", 64);
            for (byte[] key : List.of(m, siv)) {
                // Any 8 consecutive key bytes, in the forms a log line could show them.
                for (int i = 0; i + 8 <= key.length; i += 8) {
                    byte[] part = java.util.Arrays.copyOfRange(key, i, i + 8);
                    secrets.add(HexFormat.of().formatHex(part));
                    secrets.add(Base64.getEncoder().encodeToString(part).substring(0, 10));
                    secrets.add(java.util.Arrays.toString(part).substring(1, 20));
                }
            }
        }

        List<String> lines = new ArrayList<>();
        for (ILoggingEvent e : captured.list) {
            lines.add(e.getLevel() + " " + e.getFormattedMessage()
                    + (e.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(e.getThrowableProxy())));
        }
        assertThat(lines).as("the workload must make core warn, or this test proves nothing")
                .anyMatch(l -> l.startsWith("WARN") && l.contains("damaged dir.c9r"))
                .anyMatch(l -> l.startsWith("WARN") && l.contains("incomplete shortened entry"));
        for (String secret : secrets) {
            assertThat(lines).as("log lines at %s", level).noneMatch(l -> l.contains(secret));
        }
        for (String secret : secrets.subList(NAMES.size(), secrets.size())) {
            assertThat(userMessages).as("messages shown to the user").noneMatch(l -> l.contains(secret));
        }
    }

    /** Damage as a sync client or another tool leaves it: a bad folder pointer, an incomplete entry, a conflict copy, a broken file. */
    private static void damage(Path storage) throws IOException {
        Path small = null;
        Path original = null;
        try (Stream<Path> s = Files.list(storage)) {
            for (Path p : s.sorted().toList()) {
                if (Files.isDirectory(p) && Files.exists(p.resolve("dir.c9r"))) {
                    Files.writeString(p.resolve("dir.c9r"), "not-a-uuid"); // the folder is skipped and logged
                } else if (Files.isRegularFile(p) && Files.size(p) > 9000) {
                    byte[] b = Files.readAllBytes(p);
                    b[100] ^= 1; // a damaged unit
                    Files.write(p, b);
                } else if (Files.isRegularFile(p) && Files.size(p) == 48 + 32 + 8) {
                    original = p; // "original"
                } else if (Files.isRegularFile(p) && Files.size(p) == 48 + 32 + 4) {
                    small = p; // "plan" or "long"
                }
            }
        }
        // A sync client's conflict copy of "original" with other content.
        String n = original.getFileName().toString();
        Files.copy(small, original.resolveSibling(n.replace(".c9r", " (conflicted copy).c9r")));
        Files.createDirectory(storage.resolve("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.c9s"));
        Files.writeString(storage.resolve("desktop.ini"), "foreign", StandardCharsets.US_ASCII);
    }

    private static Path rootStorage(Path vault) throws IOException {
        try (Stream<Path> s = Files.walk(vault.resolve("d"))) {
            return s.filter(p -> p.getFileName().toString().equals("dirid.c9r") && sizeIsZero(p)).findFirst().orElseThrow().getParent();
        }
    }

    private static boolean sizeIsZero(Path p) {
        try {
            return Files.size(p) == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
