package dev.coffer.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Configures logback in code (found through the service loader): one appender on stderr, level
 * WARN, a short "coffer: LEVEL message" line; a command may keep marked events off it
 * ({@link #keepOffTerminal}). In code rather than logback.xml so that startup
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
        appender.setName(STDERR);
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

    /**
     * Keeps events marked {@code markerName} off the terminal (the stderr appender) from now on; other
     * appenders (the GUI's log file) still get them. For a command that prints its own, fuller line
     * for the same event. Not with --debug ({@link #enableDebug}): then the terminal is the whole
     * log (a failed copy's exception type is only there). Once per marker, however often called.
     */
    public static void keepOffTerminal(String markerName) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)
                || !(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(STDERR) instanceof ConsoleAppender<ILoggingEvent> stderr)) {
            return;
        }
        synchronized (LogConfigurator.class) {
            boolean already = stderr.getCopyOfAttachedFiltersList().stream()
                    .anyMatch(f -> f instanceof MarkedEvents m && m.markerName.equals(markerName));
            if (!already) {
                stderr.addFilter(new MarkedEvents(markerName));
            }
        }
    }

    /** Denies the events that carry a marker of this name unless Coffer logs at DEBUG; has no opinion on the others. */
    private static final class MarkedEvents extends Filter<ILoggingEvent> {
        private final String markerName;

        MarkedEvents(String markerName) {
            this.markerName = markerName;
            start();
        }

        @Override
        public FilterReply decide(ILoggingEvent event) {
            List<Marker> markers = event.getMarkerList();
            boolean marked = markers != null && markers.stream().anyMatch(m -> m.contains(markerName));
            return marked && !LoggerFactory.getLogger(COFFER_LOGGERS).isDebugEnabled() ? FilterReply.DENY : FilterReply.NEUTRAL;
        }
    }

    private static final String STDERR = "stderr";

    /** The loggers of Coffer's own classes. */
    public static final String COFFER_LOGGERS = "dev.coffer";
}
