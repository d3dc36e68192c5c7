package dev.modelgateway.e2e.routing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Callers who hang up say nothing about the vendor (issue 13): with the default breaker (10 failures in a row
 * open it for 30 s), 50 callers leaving, each in the middle of a stream or while the vendor is still thinking,
 * must leave the vendor's breaker closed, so that the 51st caller is served, and log no error.
 */
@E2e
@Isolated
class CallersLeavingTest {
    static final int CALLERS = 50;
    static GatewayHarness h;
    static final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    static final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @BeforeAll
    static void start() {
        logged.start();
        root.addAppender(logged);
        h = GatewayHarness.start();
    }

    @BeforeEach
    void forgetEarlierLines() {
        logged.list.clear();
    }

    @AfterAll
    static void stop() {
        root.detachAppender(logged);
        h.close();
    }

    @ParameterizedTest
    @CsvSource({
            "/api/v1/chat/completions, platform/vendorB-5.5, chat",
            "/api/v1/chat/completions, platform/vendorA-sonnet-4.5, chat",
            "/api/v1/messages, platform/vendorA-sonnet-4.5, messages",
            "/api/v1/messages, platform/vendorB-5.5, messages"})
    void fiftyCallersLeavingMidStreamLeaveTheVendorServing(String path, String model, String shape) {
        String marker = "mid-" + shape + "-" + model.substring(model.indexOf('/') + 1) + "-";
        for (int i = 0; i < CALLERS; i++) {
            leaveAfterFirstBytes(path, "{\"model\":\"" + model + "\",\"stream\":true,\"max_tokens\":4000,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:chunks=200;chunk_delay_ms=20]] " + marker + i + "\"}]}");
        }
        awaitCallersGone(marker);

        assertServed(path, model);
    }

    @Test
    void fiftyCallersLeavingBeforeTheAnswerLeaveTheVendorServing() {
        for (int i = 0; i < CALLERS; i++) {
            boolean stream = i % 2 == 0;
            String marker = "early-" + i + "-";
            leaveAfterSending("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"stream\":" + stream
                    + ",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:delay_ms=2000]] " + marker + "\"}]}", marker);
        }
        awaitCallersGone("early-");

        assertServed("/api/v1/chat/completions", "platform/vendorB-5.5");
    }

    private static void assertServed(String path, String model) {
        var served = h.postAuthed(path, "{\"model\":\"" + model + "\",\"max_tokens\":100,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"still there?\"}]}");
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        var streamed = h.postAuthed(path, "{\"model\":\"" + model + "\",\"stream\":true,\"max_tokens\":100,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"still streaming?\"}]}");
        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        // the resets the callers' leaving caused are no error, nor a warning about the vendor
        assertThat(logged.list).as("lines logged while callers left").noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)
                || e.getLevel().isGreaterOrEqual(Level.WARN) && (e.getLoggerName().startsWith("dev.modelgateway.upstream")
                        || e.getLoggerName().startsWith("io.vertx")));
    }

    /** Waits until the simulator has seen every caller's upstream request closed early (reset by the gateway). */
    private static void awaitCallersGone(String marker) {
        h.sim.awaitReceived(list -> list.stream().filter(r -> r.body().contains(marker) && r.clientClosedEarly()).count()
                >= CALLERS, 10_000).await();
    }

    private static void leaveAfterFirstBytes(String path, String body) {
        try (Socket socket = open(path, body)) {
            InputStream in = socket.getInputStream();
            assertThat(in.read(new byte[256])).isPositive(); // the stream has begun
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the request, waits until it reached the vendor ({@code marker} in its body), then hangs up. */
    private static void leaveAfterSending(String path, String body, String marker) {
        try (Socket ignored = open(path, body)) {
            h.sim.awaitReceived(list -> list.stream().anyMatch(r -> r.body().contains(marker)), 5_000).await();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Socket open(String path, String body) throws IOException {
        Socket socket = new Socket("127.0.0.1", h.gateway.port());
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + GatewayHarness.KEY
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(bytes);
        out.flush();
        return socket;
    }
}
