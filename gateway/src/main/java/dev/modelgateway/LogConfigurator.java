package dev.modelgateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import dev.modelgateway.config.Settings;
import dev.modelgateway.observability.JsonLineEncoder;
import dev.modelgateway.observability.RedactingEncoder;
import dev.modelgateway.server.AccessLogAppender;

import java.util.function.UnaryOperator;

/**
 * The gateway's logging, set up in code rather than by a {@code logback.xml}: Logback's XML configurator (an XML
 * parser, then the model it builds and interprets) cost about 50 ms of CPU at every start on one core. Logback
 * finds this class through {@code META-INF/services} and runs it before looking for a file (Logback manual,
 * "Configuration", {@code Configurator}); a file named by {@code -Dlogback.configurationFile} (in
 * {@code JAVA_OPTS}) is used instead.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} %msg%n";
    /** Requests queued for the access log's writer; beyond it lines are dropped, never waited for. */
    static final int ACCESS_QUEUE = 8192;
    /** How often the access log's writer takes the queued lines. */
    static final long ACCESS_BATCH_MILLIS = 20;

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        configure(context, System::getenv);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    static void configure(LoggerContext context, UnaryOperator<String> env) {
        boolean json = "json".equalsIgnoreCase(env.apply(Settings.ACCESS_LOG_FORMAT.env()));
        // in JSON mode every line of the stream is JSON, not the access log's alone (docs/observability.md, "Logs")
        ConsoleAppender<ILoggingEvent> console = json ? console(context, "STDOUT", jsonLines(context)) : console(context, "STDOUT", PATTERN);
        // The access log must never make a request wait on the console, nor wake a thread per line.
        AccessLogAppender access = new AccessLogAppender();
        access.setContext(context);
        access.setName("ACCESS");
        access.setQueueSize(ACCESS_QUEUE);
        access.setBatchMillis(ACCESS_BATCH_MILLIS);
        // JSON lines are the message alone (its own timestamp inside): one parseable object per line
        access.addAppender(json ? console(context, "ACCESS_JSON", "%msg%n") : console);
        access.start();

        Logger accessLog = context.getLogger("access");
        // GATEWAY_ACCESS_LOG=OFF silences it (docs/configuration.md)
        accessLog.setLevel(Level.toLevel(env.apply(Settings.ACCESS_LOG.env()), Level.INFO));
        accessLog.setAdditive(false);
        accessLog.addAppender(access);
        context.getLogger("io.netty").setLevel(Level.WARN);
        context.getLogger("io.vertx").setLevel(Level.WARN);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
    }

    private static ConsoleAppender<ILoggingEvent> console(LoggerContext context, String name, String pattern) {
        // every line, whoever logs it, through the one redaction layer (docs/observability.md, "Redaction")
        RedactingEncoder encoder = new RedactingEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return console(context, name, encoder);
    }

    private static JsonLineEncoder jsonLines(LoggerContext context) {
        JsonLineEncoder encoder = new JsonLineEncoder();
        encoder.setContext(context);
        encoder.start();
        return encoder;
    }

    private static ConsoleAppender<ILoggingEvent> console(LoggerContext context, String name, Encoder<ILoggingEvent> encoder) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(name);
        console.setEncoder(encoder);
        console.start();
        return console;
    }
}
