package dev.coffer.app.os;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
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

    /** Adds the file appender (once) and sets the level. */
    public static void start(Path configFolder, boolean debug) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root.getAppender("file") == null) {
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

    public static void setDebug(boolean debug) {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(debug ? Level.DEBUG : Level.WARN);
        }
    }
}
