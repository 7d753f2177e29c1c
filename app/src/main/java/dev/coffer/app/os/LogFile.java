package dev.coffer.app.os;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.LoggerFactory;

/**
 * The GUI's log: {@code coffer.log} in the config folder (a GUI has no terminal to print to),
 * WARN by default, DEBUG when the preference says so. What is logged is never secret: ciphertext
 * locations and exception types, never passphrases, keys or cleartext names at the default level.
 *
 * <p>Not responsible for the command line's logging ({@code LogConfigurator}, stderr).
 */
public final class LogFile {
    public static final String NAME = "coffer.log";

    private LogFile() {}

    /**
     * Adds the file appender (once) and sets the level. The folder and the file are the user's alone
     * (0700, 0600): at DEBUG the log may name cleartext files, and it sits beside the settings.
     */
    public static void start(Path configFolder, boolean debug) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root.getAppender("file") == null) {
            ownerOnly(configFolder, configFolder.resolve(NAME));
            PatternLayoutEncoder encoder = new PatternLayoutEncoder();
            encoder.setContext(context);
            encoder.setPattern("%d{ISO8601} %level %logger{20} %msg%n");
            encoder.start();
            FileAppender<ILoggingEvent> file = new FileAppender<>();
            file.setContext(context);
            file.setName("file");
            file.setFile(configFolder.resolve(NAME).toString());
            file.setAppend(true);
            file.setEncoder(encoder);
            file.start();
            root.addAppender(file);
        }
        setDebug(debug);
    }

    /** DEBUG for Coffer's own loggers only (the libraries' DEBUG carries URLs and credentials: LogConfigurator), or WARN. */
    public static void setDebug(boolean debug) {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.WARN);
        }
        if (LoggerFactory.getLogger(dev.coffer.app.LogConfigurator.COFFER_LOGGERS) instanceof Logger coffer) {
            coffer.setLevel(debug ? Level.DEBUG : null);
        }
    }

    /** Makes the config folder 0700 and the log file 0600 (created empty if missing) where the store has POSIX permissions. */
    static void ownerOnly(Path folder, Path log) {
        try {
            if (!Files.getFileStore(folder).supportsFileAttributeView(PosixFileAttributeView.class)) {
                return;
            }
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
            if (!Files.exists(log, LinkOption.NOFOLLOW_LINKS)) {
                Files.createFile(log, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------"));
            }
        } catch (IOException | UnsupportedOperationException e) {
            // the log still works; its permissions stay as the system made them
        }
    }
}
