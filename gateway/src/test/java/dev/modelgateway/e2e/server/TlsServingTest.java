package dev.modelgateway.e2e.server;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OkHttpClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.ClientOptions;
import com.openai.helpers.RealtimeConnection;
import com.openai.helpers.RealtimeWebSocketOptions;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.realtime.RealtimeClientEvent;
import com.openai.models.realtime.RealtimeServerEvent;
import com.openai.models.realtime.ResponseCreateEvent;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.server.StartupFailure;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * TLS served by the gateway itself (issue 12, item 10): HTTPS with HTTP/2 or HTTP/1.1 by ALPN, realtime over
 * {@code wss://} with openai-java's own client, and the connection limits on the TLS listener.
 */
@E2e
class TlsServingTest {
    static TestCert cert;
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        cert = TestCert.selfSigned("localhost");
        h = GatewayHarness.builder().tls(cert.serverTls()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    static String base(GatewayHarness g) {
        return "https://localhost:" + g.gateway.port() + "/api/v1";
    }

    static HttpClient https(HttpClient.Version version) {
        return HttpClient.newBuilder().sslContext(cert.clientContext()).version(version)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    static HttpResponse<String> chat(HttpClient client, boolean stream) throws Exception {
        String body = "{\"model\":\"platform/vendorB-5.5\",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"Hello over TLS\"}]}";
        return client.send(HttpRequest.newBuilder(URI.create(base(h) + "/chat/completions")).timeout(Duration.ofSeconds(20))
                .header("authorization", "Bearer " + GatewayHarness.KEY).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void httpsChatWithTheOpenAiSdk() {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(base(h)).apiKey(GatewayHarness.KEY).maxRetries(0)
                .sslSocketFactory(cert.clientContext().getSocketFactory()).trustManager(cert.trustManager()).build();
        try {
            ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder()
                    .model("platform/vendorB-5.5").addUserMessage("Hello gateway").build());
            assertThat(c.choices().getFirst().message().content()).isPresent().get().asString().isNotBlank();
        } finally {
            client.close();
        }
    }

    @Test
    void http2AndHttp11AreBothOfferedOverTls() throws Exception {
        HttpResponse<String> h2 = chat(https(HttpClient.Version.HTTP_2), false);
        assertThat(h2.statusCode()).as(h2.body()).isEqualTo(200);
        assertThat(h2.version()).as("ALPN chose h2").isEqualTo(HttpClient.Version.HTTP_2);
        HttpResponse<String> h2Stream = chat(https(HttpClient.Version.HTTP_2), true);
        assertThat(h2Stream.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(h2Stream.body()).contains("data: [DONE]");
        HttpResponse<String> h1 = chat(https(HttpClient.Version.HTTP_1_1), false);
        assertThat(h1.statusCode()).as(h1.body()).isEqualTo(200);
        assertThat(h1.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    }

    @Test
    void realtimeOverWssWithTheOpenAiSdk() {
        // openai-java turns an https base URL into wss://, as the Node SDK's realtime client always does
        ClientOptions options = ClientOptions.builder()
                .httpClient(OkHttpClient.builder().sslSocketFactory(cert.clientContext().getSocketFactory())
                        .trustManager(cert.trustManager()).build())
                .baseUrl(base(h)).apiKey(GatewayHarness.KEY).build();
        try (RealtimeConnection conn = RealtimeConnection.connect(options,
                RealtimeWebSocketOptions.builder().model("platform/vendorB-realtime").reconnect(false).build())) {
            assertThat(conn.receive().isSessionCreated()).isTrue();
            conn.send(RealtimeClientEvent.ofResponseCreate(ResponseCreateEvent.builder().build()));
            StringBuilder text = new StringBuilder();
            RealtimeServerEvent event;
            while (!(event = conn.receive()).isResponseDone()) {
                event.responseOutputTextDelta().ifPresent(d -> text.append(d.delta()));
            }
            assertThat(text.toString()).startsWith("Hello from vendorB-realtime.");
        }
    }

    @Test
    void cleartextIsNotServedOnTheTlsPort() {
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.gateway.port() + "/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
    }

    @Test
    void anUnusableCertificateFailsStartUpNamingTheSettings() throws Exception {
        Path garbage = Files.createTempFile("cert", ".pem");
        Files.writeString(garbage, "not a certificate");
        Vertx vertx = Vertx.vertx();
        try {
            GatewayConfig config = new ConfigLoader(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", "0",
                    "GATEWAY_ACCOUNTS_DATABASE_URL", GatewayHarness.tempDatabaseUrl(),
                    "GATEWAY_SERVER_TLS_CERT_FILE", garbage.toString(), "GATEWAY_SERVER_TLS_KEY_FILE", cert.keyPem().toString())::get).load(null);
            Throwable failure = catchThrowable(() -> Gateway.start(vertx, config, 1).await());
            assertThat(failure).isInstanceOf(StartupFailure.class);
            assertThat(failure.getMessage()).contains("TLS certificate or key", "GATEWAY_SERVER_TLS_CERT_FILE", "GATEWAY_SERVER_TLS_KEY_FILE");
        } finally {
            vertx.close().await();
        }
    }

    // ---- the hardening limits hold on the TLS listener

    /** Reads until the server closes: true when it did within {@code ms}, false on a timeout. */
    static boolean closedWithin(Socket s, int ms) throws IOException {
        s.setSoTimeout(ms);
        try (InputStream in = s.getInputStream()) {
            while (in.read() >= 0) {
                // whatever the server sent before closing
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    static SSLSocket handshaken(int port) throws IOException {
        SSLSocket s = (SSLSocket) cert.clientContext().getSocketFactory().createSocket("127.0.0.1", port);
        s.startHandshake();
        return s;
    }

    @Test
    void connectionCapsAndTimeoutsHoldOverTls() throws Exception {
        // head timeout 3 s, at most 2 connections per client address
        try (GatewayHarness small = GatewayHarness.builder().tls(cert.serverTls())
                .limits(new ServerLimits(360, 3, 120, 2, 8192, 0)).start()) {
            int port = small.gateway.port();
            try (SSLSocket first = handshaken(port); SSLSocket second = handshaken(port); SSLSocket third = handshaken(port)) {
                assertThat(closedWithin(third, 2_000)).as("the third connection from one address is closed at once").isTrue();
                // the two admitted ones send nothing: the request-head timeout closes them
                assertThat(closedWithin(first, 8_000)).as("silent TLS connection closed by the head timeout").isTrue();
                assertThat(closedWithin(second, 8_000)).isTrue();
            }
            // a connection that never even starts its handshake is closed too (handshake bounded by the head timeout)
            try (Socket raw = new Socket("127.0.0.1", port)) {
                assertThat(closedWithin(raw, 8_000)).as("silent TCP connection on the TLS port").isTrue();
            }
            // and a request still works
            try (SSLSocket s = handshaken(port)) {
                s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(answer).startsWith("HTTP/1.1 200");
            }
        }
    }
}
