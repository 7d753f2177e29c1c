package dev.coffer.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.LoggerFactory;

/**
 * Configures logback in code (found through the service loader): one appender on stderr, level
 * WARN, a short "coffer: LEVEL message" line. In code rather than logback.xml so that startup
 * parses no XML. What gets logged is core's business: ciphertext locations, never cleartext names
 * or keys.
 *
 * <p>Not responsible for user-facing error messages ({@code ErrorHandlers} prints those).
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("coffer: %level %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("stderr");
        appender.setTarget("System.err");
        appender.setEncoder(encoder);
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(appender);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /**
     * Lowers Coffer's own level to DEBUG (for --debug). Only Coffer's: the libraries' DEBUG output
     * carries what must never be logged (Jetty logs every request's URI, with the WebDAV server's
     * secret segment and cleartext names, and its headers, with the mount's credential).
     */
    public static void enableDebug() {
        if (LoggerFactory.getLogger(COFFER_LOGGERS) instanceof Logger coffer) {
            coffer.setLevel(Level.DEBUG);
        }
    }

    /** The loggers of Coffer's own classes. */
    public static final String COFFER_LOGGERS = "dev.coffer";
}
