package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorHttp;
import dev.modelgateway.config.VendorPool;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code vendors.<id>.http_version} and {@code ca_file} (docs/configuration.md, "Vendor connection pools"): the
 * HTTP version the vendor sees, over TLS (ALPN) and in cleartext (prior knowledge), and many streams sharing
 * one HTTP/2 connection, which is how the gateway holds thousands of concurrent streams with few sockets.
 * The "vendor" is a small Vert.x server answering vendor B's chat completions, JSON and SSE.
 */
@E2e
class UpstreamHttpVersionTest {
    static final TestCert CERT = TestCert.selfSigned("localhost");
    static Vertx vertx;
    static FakeVendor tlsBoth;
    static FakeVendor tlsHttp1Only;
    static FakeVendor cleartext;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        tlsBoth = FakeVendor.start(vertx, new HttpServerOptions().setSsl(true).setUseAlpn(true)
                .setKeyCertOptions(CERT.keyCertOptions()).setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1)));
        tlsHttp1Only = FakeVendor.start(vertx, new HttpServerOptions().setSsl(true).setUseAlpn(true)
                .setKeyCertOptions(CERT.keyCertOptions()).setAlpnVersions(List.of(HttpVersion.HTTP_1_1)));
        cleartext = FakeVendor.start(vertx, new HttpServerOptions());
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    @Test
    void overTlsAutoSpeaksHttp2ToAVendorOfferingIt() {
        assertThat(served(tlsBoth, VendorHttp.AUTO)).isEqualTo(HttpVersion.HTTP_2);
    }

    @Test
    void overTlsAutoFallsBackToHttp11WhenTheVendorOffersOnlyThat() {
        assertThat(served(tlsHttp1Only, VendorHttp.AUTO)).isEqualTo(HttpVersion.HTTP_1_1);
    }

    @Test
    void http11CanBeRequiredOverTls() {
        assertThat(served(tlsBoth, VendorHttp.HTTP1)).isEqualTo(HttpVersion.HTTP_1_1);
    }

    @Test
    void cleartextIsHttp11UnlessHttp2IsConfigured() {
        assertThat(served(cleartext, VendorHttp.AUTO)).isEqualTo(HttpVersion.HTTP_1_1);
        assertThat(served(cleartext, VendorHttp.HTTP2)).isEqualTo(HttpVersion.HTTP_2);
    }

    @Test
    void concurrentStreamsShareHttp2Connections() throws Exception {
        int streams = 150;
        tlsBoth.reset();
        try (GatewayHarness h = gateway(tlsBoth, VendorHttp.AUTO)) {
            tlsBoth.holdStreamsMs = 500;
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, streams)
                    .mapToObj(i -> client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.gateway.port()
                                    + "/api/v1/chat/completions")).header("authorization", "Bearer " + GatewayHarness.KEY)
                            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(streamBody(i))).build(),
                            HttpResponse.BodyHandlers.ofString()))
                    .toList();
            for (var c : calls) {
                HttpResponse<String> r = c.get(30, TimeUnit.SECONDS);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(r.body()).contains("\"content\":\"Hello\"").endsWith("data: [DONE]\n\n");
            }
        } finally {
            tlsBoth.holdStreamsMs = 0;
        }
        assertThat(tlsBoth.versions).hasSize(streams).containsOnly(HttpVersion.HTTP_2);
        // 150 streams held at once share the pool's HTTP/2 connections: at most one per 100 of max_connections
        // (a burst opens them all before the first one's SETTINGS say how many streams it takes), not one each
        assertThat(tlsBoth.connections).hasSizeBetween(1, new VendorPool(1000, 1000).http2Connections());
    }

    /**
     * A caller who stops reading stops its own stream (backpressure reaches the vendor) and no other: the streams
     * sharing its HTTP/2 connection (one connection here) go on. Over HTTP/1.1 each stream had its own socket, so
     * this is what sharing connections must not change.
     */
    @Test
    void aCallerNotReadingDoesNotStallTheStreamsSharingItsConnection() throws Exception {
        cleartext.reset();
        try (GatewayHarness h = GatewayHarness.builder().eventLoops(1).baseUrl(Vendor.OPENAI, cleartext.baseUrl())
                .pool(Vendor.OPENAI, new VendorPool(VendorPool.STREAMS_PER_CONNECTION, 10, VendorHttp.HTTP2, null)).start();
             Socket stalled = new Socket("127.0.0.1", h.gateway.port())) {
            stalled.setReceiveBufferSize(4096);
            byte[] body = streamBody(-1).replace("hi -1", FakeVendor.FLOOD).getBytes(StandardCharsets.UTF_8);
            OutputStream out = stalled.getOutputStream();
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer " + GatewayHarness.KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            // the vendor floods that stream until the gateway stops reading it (the caller reads nothing)
            Eventually.until("the vendor saw its flood stream pause", Duration.ofSeconds(10), () -> cleartext.flooded.get() >= 1);
            assertThat(cleartext.flooded.get()).as("the vendor saw its flood stream pause").isEqualTo(1);
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", streamBody(i));
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(r.body()).contains("\"content\":\"Hello\"").endsWith("data: [DONE]\n\n");
            }
        }
        assertThat(cleartext.connections).hasSize(1);
        assertThat(cleartext.versions).containsOnly(HttpVersion.HTTP_2);
    }

    /** One JSON and one streamed chat completion through a gateway speaking {@code http} to the vendor. */
    private static HttpVersion served(FakeVendor vendor, VendorHttp http) {
        vendor.reset();
        try (GatewayHarness h = gateway(vendor, http)) {
            HttpResponse<String> json = h.postAuthed("/api/v1/chat/completions",
                    "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
            JsonNode answer = Json.parseOrNull(json.body());
            assertThat(answer.at("/choices/0/message/content").asText()).isEqualTo("Hello");
            HttpResponse<String> sse = h.postAuthed("/api/v1/chat/completions", streamBody(0));
            assertThat(sse.statusCode()).as(sse.body()).isEqualTo(200);
            assertThat(sse.body()).contains("\"content\":\"Hello\"").endsWith("data: [DONE]\n\n");
        }
        assertThat(vendor.versions).hasSize(2);
        assertThat(Set.copyOf(vendor.versions)).hasSize(1);
        return vendor.versions.getFirst();
    }

    private static GatewayHarness gateway(FakeVendor vendor, VendorHttp http) {
        return GatewayHarness.builder().eventLoops(1)
                .baseUrl(Vendor.OPENAI, vendor.baseUrl())
                .pool(Vendor.OPENAI, new VendorPool(1000, 1000, http, vendor.tls ? CERT.certPem().toString() : null))
                .start();
    }

    private static String streamBody(int i) {
        return "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi " + i + "\"}]}";
    }

    /** Vendor B's chat completions, recording the HTTP version and the connection of every request. */
    static final class FakeVendor {
        final List<HttpVersion> versions = new CopyOnWriteArrayList<>();
        final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
        /** Marks the request whose answer is an endless flood of chunks. */
        static final String FLOOD = "flood me";
        /** Flood streams that stopped taking data for 2 s: the gateway stopped reading them. */
        final AtomicInteger flooded = new AtomicInteger();
        final boolean tls;
        volatile long holdStreamsMs;
        private final Vertx vertx;
        private HttpServer server;

        private FakeVendor(Vertx vertx, boolean tls) {
            this.vertx = vertx;
            this.tls = tls;
        }

        static FakeVendor start(Vertx vertx, HttpServerOptions options) {
            FakeVendor v = new FakeVendor(vertx, options.isSsl());
            v.server = vertx.createHttpServer(options.setHost("127.0.0.1")).requestHandler(r -> r.body().onSuccess(body -> v.answer(r,
                    Json.parseOrNull(body.toString()).path("stream").asBoolean(), body.toString()))).listen(0).await();
            return v;
        }

        /** Writes SSE chunks for as long as the stream takes them; counts the streams that stopped taking them. */
        private void flood(HttpServerResponse response, String chunk) {
            if (response.headWritten() == false) response.setChunked(true).putHeader("content-type", "text/event-stream");
            while (!response.writeQueueFull()) {
                if (response.closed()) return;
                response.write(chunk);
            }
            long paused = vertx.setTimer(2000, id -> flooded.incrementAndGet());
            response.drainHandler(v -> {
                vertx.cancelTimer(paused);
                flood(response, chunk);
            });
        }

        String baseUrl() {
            return (tls ? "https://localhost:" : "http://127.0.0.1:") + server.actualPort() + "/v1";
        }

        void reset() {
            versions.clear();
            connections.clear();
            flooded.set(0);
        }

        private void answer(HttpServerRequest r, boolean stream, String body) {
            versions.add(r.version());
            connections.add(r.connection());
            String created = "1700000000";
            if (body.contains(FLOOD)) {
                flood(r.response(), "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":" + created
                        + ",\"model\":\"vendorB-5.5\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + "x".repeat(8000)
                        + "\"},\"finish_reason\":null}]}\n\n");
                return;
            }
            if (!stream) {
                r.response().putHeader("content-type", "application/json").end("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\","
                        + "\"created\":" + created + ",\"model\":\"vendorB-5.5\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                        + "\"content\":\"Hello\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}");
                return;
            }
            String head = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":" + created + ",\"model\":\"vendorB-5.5\",";
            r.response().setChunked(true).putHeader("content-type", "text/event-stream");
            r.response().write("data: " + head + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n");
            Runnable end = () -> r.response().end("data: " + head + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                    + "data: " + head + "\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}\n\n"
                    + "data: [DONE]\n\n");
            if (holdStreamsMs > 0) vertx.setTimer(holdStreamsMs, id -> end.run());
            else end.run();
        }
    }
}
