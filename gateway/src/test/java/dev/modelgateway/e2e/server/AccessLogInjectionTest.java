package dev.modelgateway.e2e.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Hardening item 15 (access log): a request path cannot forge a log line or carry terminal escapes. */
@ExtendWith(PerClassGateway.class)
@E2e
class AccessLogInjectionTest {
    static GatewayHarness h;

    @Test
    void controlCharactersInThePathAreEscaped() throws Exception {
        Logger access = (Logger) LoggerFactory.getLogger("access");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        access.addAppender(lines);
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.send("GET /forged\u001b[31mred\u0007\u0000\u007f\\x HTTP/1.1\r\nHost: gw\r\n\r\n");
            assertThat(c.read(3_000).status()).isEqualTo(404);
            List<String> logged = Eventually.value("the access line", Duration.ofMillis(2_500), () -> lines.list.stream()
                    .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("/forged")).toList(), found -> !found.isEmpty());
            assertThat(logged).hasSize(1);
            String line = logged.getFirst();
            assertThat(line).contains("/forged\\x1b[31mred\\x07\\x00\\x7f\\\\x 404");
            assertThat(line.chars().filter(ch -> ch < 0x20 || ch == 0x7f)).isEmpty();
        } finally {
            access.detachAppender(lines);
        }
    }
}
