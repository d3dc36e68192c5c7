package dev.modelgateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import dev.modelgateway.server.AccessLogAppender;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

@Isolated
class LogConfiguratorTest {
    @Test
    void logbackFindsItWithoutAnyFile() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        assertThat(context.getLogger("access").getAppender("ACCESS")).isInstanceOf(AccessLogAppender.class);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT")).isNotNull();
    }

    @Test
    void theAccessLogNeverWaitsAndGoesOnlyToItsAppender() {
        LoggerContext context = new LoggerContext();
        LogConfigurator.configure(context, Map.<String, String>of()::get);

        Logger access = context.getLogger("access");
        assertThat(access.getLevel()).isEqualTo(Level.INFO);
        assertThat(access.isAdditive()).isFalse();
        AccessLogAppender appender = (AccessLogAppender) access.getAppender("ACCESS");
        assertThat(appender.isStarted()).isTrue();
        assertThat(appender.getAppender("STDOUT")).isNotNull();
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.netty").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("io.vertx.core.http").getEffectiveLevel()).isEqualTo(Level.WARN);
        context.stop();
    }

    @Test
    void inJsonModeEveryLineIsJsonAndRedacted() throws Exception {
        LoggerContext context = new LoggerContext();
        LogConfigurator.configure(context, Map.of("GATEWAY_ACCESS_LOG_FORMAT", "json")::get);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        Encoder<ILoggingEvent> encoder = ((OutputStreamAppender<ILoggingEvent>) root.getAppender("STDOUT")).getEncoder();
        String secret = "pk-" + "a".repeat(24);
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), context.getLogger("io.vertx.core.impl.ContextBase"),
                Level.WARN, "failed with \"{}\"\nsecond line", new IllegalStateException("boom " + secret), new Object[]{secret});
        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);

        assertThat(line).endsWith("\n").doesNotContain(secret);
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = Json.MAPPER.readTree(line);
        assertThat(json.path("level").asText()).isEqualTo("WARN");
        assertThat(json.path("logger").asText()).isEqualTo("io.vertx.core.impl.ContextBase");
        assertThat(json.path("msg").asText()).isEqualTo("failed with \"[REDACTED]\"\nsecond line");
        assertThat(json.path("error").asText()).contains("IllegalStateException: boom [REDACTED]");
        assertThat(json.path("ts").asText()).isNotEmpty();
        context.stop();
    }

    @Test
    void gatewayAccessLogOffSilencesIt() {
        LoggerContext context = new LoggerContext();
        LogConfigurator.configure(context, Map.of("GATEWAY_ACCESS_LOG", "OFF")::get);
        assertThat(context.getLogger("access").isInfoEnabled()).isFalse();
        context.stop();
    }
}
