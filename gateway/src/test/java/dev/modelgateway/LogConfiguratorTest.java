package dev.modelgateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import dev.modelgateway.server.AccessLogAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

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
    void gatewayAccessLogOffSilencesIt() {
        LoggerContext context = new LoggerContext();
        LogConfigurator.configure(context, Map.of("GATEWAY_ACCESS_LOG", "OFF")::get);
        assertThat(context.getLogger("access").isInfoEnabled()).isFalse();
        context.stop();
    }
}
