package dev.modelgateway.canary;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.modelgateway.observability.ErrorBodies;
import dev.modelgateway.observability.RedactingEncoder;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The canary-secret check over the whole suite (registered for every test class through
 * {@code META-INF/services}): every log line, formatted by the console's own redacting encoder, and every error body
 * the gateway sends (the {@link ErrorBodies} logger, turned on here) is searched for the {@link Canaries}; a test class
 * during which one showed fails in its {@code @AfterAll}, naming the line. Deterministic: the lines are checked as they
 * are logged, on the logging thread. Test classes run side by side (junit-platform.properties) and a line cannot tell
 * which one caused it, so a leak fails the first class to end after it, and is never cleared unreported.
 */
public final class CanaryLogCheck implements BeforeAllCallback, AfterAllCallback {
    private static final String APPENDER = "CANARY";
    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();

    @Override
    public void beforeAll(ExtensionContext context) {
        install();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<String> found = new ArrayList<>();
        for (String leak; (leak = LEAKS.poll()) != null; ) found.add(leak);
        if (found.isEmpty()) return;
        throw new AssertionError("secrets reached the logs or an error body during " + context.getDisplayName()
                + " (or a test class running beside it):\n  " + String.join("\n  ", found));
    }

    /** The canaries (and platform keys) in one formatted line. */
    static List<String> leaks(String line) {
        List<String> out = new ArrayList<>();
        for (String c : Canaries.ALL) if (line.contains(c)) out.add(c);
        var m = Canaries.PLATFORM_KEY_SHAPE.matcher(line);
        while (m.find()) out.add(m.group());
        return out;
    }

    /** Attaches the check (again, if a test reset Logback's context) to every logger that writes. */
    private static synchronized void install() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root.getAppender(APPENDER) != null) return;
        RedactingEncoder encoder = new RedactingEncoder();
        encoder.setContext(context);
        encoder.setPattern("%level %logger %msg%n%ex");
        encoder.start();
        AppenderBase<ILoggingEvent> check = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
                if (!leaks(line).isEmpty()) LEAKS.add(line.strip());
            }
        };
        check.setContext(context);
        check.setName(APPENDER);
        check.start();
        root.addAppender(check);
        context.getLogger("access").addAppender(check);
        Logger errors = context.getLogger(ErrorBodies.LOGGER);
        errors.setLevel(Level.DEBUG);
        errors.setAdditive(false);
        errors.addAppender(check);
    }
}
