package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.MediaPolicy;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.upstream.MediaFetcher;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Media URLs for vendors that need bytes: the SSRF guard (refusals happen before any connection), and the
 * limits and failures of the download, each a 400 naming the caller's field.
 */
@E2e
@Isolated
class MediaFetchTest {
    static GatewayHarness guarded;
    static ConnectionCounter loopback;
    static ConnectionCounter loopback6;
    static HttpServer files;
    static int filesPort;
    /** Downloads of /slow.png running now, and the most seen at once. */
    static final AtomicInteger slowRunning = new AtomicInteger();
    static final AtomicInteger slowPeak = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        guarded = GatewayHarness.builder().media(MediaPolicy.DEFAULT).start();
        loopback = ConnectionCounter.on(InetAddress.getByName("127.0.0.1"));
        loopback6 = ConnectionCounter.onIfAvailable(InetAddress.getByName("::1"));
        files = guarded.vertx.createHttpServer().requestHandler(req -> {
            String path = req.path();
            if (path.startsWith("/hop/")) {
                int n = Integer.parseInt(path.substring(5));
                req.response().setStatusCode(302).putHeader("location", n == 0 ? "/png" : "/hop/" + (n - 1)).end();
            } else if (path.equals("/png")) {
                req.response().putHeader("content-type", "image/png").end(Buffer.buffer(
                        Base64.getDecoder().decode(Samples.TINY_PNG)));
            } else if (path.equals("/untyped")) {
                req.response().end(Buffer.buffer(
                        Base64.getDecoder().decode(Samples.TINY_PNG)));
            } else if (path.equals("/html")) {
                req.response().putHeader("content-type", "text/html").end("<html></html>");
            } else if (path.equals("/slow.png")) {
                slowPeak.accumulateAndGet(slowRunning.incrementAndGet(), Math::max);
                guarded.vertx.setTimer(150, t -> {
                    slowRunning.decrementAndGet();
                    req.response().putHeader("content-type", "image/png").end(Buffer.buffer(
                            Base64.getDecoder().decode(Samples.TINY_PNG)));
                });
            } else if (path.equals("/fat.png")) {
                byte[] png = Base64.getDecoder().decode(Samples.TINY_PNG);
                byte[] fat = java.util.Arrays.copyOf(png, 1500);
                req.response().putHeader("content-type", "image/png").end(Buffer.buffer(fat));
            } else if (path.equals("/internal.json")) {
                req.response().putHeader("content-type", "application/json").end("{\"secret\":\"internal-only\"}");
            } else if (path.equals("/big")) {
                req.response().setChunked(true);
                for (int i = 0; i < 20; i++) req.response().write("x".repeat(1000));
                req.response().end();
            } else if (path.equals("/silent")) {
                // never answers
            } else {
                req.response().setStatusCode(404).end();
            }
        }).listen(0, "127.0.0.1").await();
        filesPort = files.actualPort();
    }

    @AfterAll
    static void stop() throws IOException {
        files.close().await();
        guarded.close();
        loopback.close();
        if (loopback6 != null) loopback6.close();
    }

    static String chatWithImage(String url) {
        return "{\"model\":\"vendorC-flash-3\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Look\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + url + "\"}}]}]}";
    }

    static JsonNode refused(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        return Json.parseOrNull(r.body()).path("error");
    }

    @Test
    void privateAndLoopbackTargetsAreRefusedBeforeConnecting() {
        guarded.sim.clearReceived();
        long started = System.nanoTime();
        String[][] cases = {
                {"http://127.0.0.1:" + loopback.port() + "/x.png", "loopback"},
                {"http://localhost:" + loopback.port() + "/x.png", "loopback"},
                {"http://10.20.30.40/x.png", "private"},
                {"http://192.168.0.10:8080/x.png", "private"},
                {"http://169.254.169.254/latest/meta-data/", "link-local"},
                {"http://[::1]:" + (loopback6 == null ? 9 : loopback6.port()) + "/x.png", "loopback"},
                {"http://[::ffff:127.0.0.1]:" + loopback.port() + "/x.png", "loopback"},
        };
        for (String[] c : cases) {
            JsonNode error = refused(guarded.postAuthed("/api/v1/chat/completions", chatWithImage(c[0])));
            assertThat(error.path("param").asText()).as(c[0]).isEqualTo("messages[0].content[1].image_url.url");
            // the refusal says no more than that: not the kind of address, nor (for a name) what it resolves to
            assertThat(error.path("message").asText()).as(c[0]).contains("is not allowed", "public addresses")
                    .doesNotContain(c[1]);
        }
        JsonNode named = refused(guarded.postAuthed("/api/v1/chat/completions", chatWithImage("http://localhost:" + loopback.port() + "/x.png")));
        assertThat(named.toString()).doesNotContain("127.0.0.1", "loopback");
        // a connection attempt to 10.x or 169.254.x would have taken the connect timeout
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
        assertThat(loopback.accepted()).isZero();
        if (loopback6 != null) assertThat(loopback6.accepted()).isZero();
        assertThat(guarded.sim.received()).isEmpty();
    }

    @Test
    void onlyHttpAndHttpsAreFetched() {
        MediaFetcher f = fetcher(MediaPolicy.DEFAULT);
        for (String url : new String[]{"file:///etc/passwd", "ftp://example.com/x.png", "gopher://example.com/"}) {
            JsonNode error = refused(guarded.postAuthed("/api/v1/chat/completions", chatWithImage(url)));
            assertThat(error.path("param").asText()).isEqualTo("messages[0].content[1].image_url.url");
            assertThat(failure(f, url)).contains("only http and https");
        }
        f.close().await();
    }

    @Test
    void messagesProtocolNamesItsOwnField() {
        String body = "{\"model\":\"vendorC-pro-3\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"http://127.0.0.1:" + loopback.port() + "/a.png\"}},"
                + "{\"type\":\"text\",\"text\":\"Look\"}]}]}";
        JsonNode error = refused(guarded.postAuthed("/api/v1/messages", body));
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).contains("messages[0].content[0].source.url").contains("is not allowed");
        assertThat(loopback.accepted()).isZero();
    }

    @Test
    void vendorsThatFetchThemselvesGetTheUrlUnchecked() {
        // Anthropic fetches URLs itself: the gateway forwards them and never connects
        guarded.sim.clearReceived();
        String url = "http://10.20.30.40/x.png";
        var r = guarded.postAuthed("/api/v1/chat/completions", chatWithImage(url).replace("vendorC-flash-3", "vendorA-sonnet-5"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(guarded.sim.received().getLast().body()).contains(url);
    }

    @Test
    void dnsRebindingCannotSwapInALoopbackAddress() throws Exception {
        // The first answer is public and passes the check; any later answer (a rebinding DNS server with a
        // zero TTL) points at loopback. The fetch must connect to the address it checked or refuse: never
        // reach the loopback listener.
        AtomicInteger lookups = new AtomicInteger();
        InetAddress publicAddress = InetAddress.getByAddress(new byte[]{(byte) 203, 0, 113, 7});
        MediaFetcher.Resolver rebinding = host -> lookups.getAndIncrement() == 0
                ? new InetAddress[]{publicAddress}
                : new InetAddress[]{InetAddress.getByName("127.0.0.1")};
        MediaFetcher f = new MediaFetcher(guarded.vertx, new MediaPolicy(false, 10_000, 800, 3),
                MediaFetcher.Network.SYSTEM.withResolver(rebinding));
        try (ConnectionCounter target = ConnectionCounter.on(InetAddress.getByName("127.0.0.1"))) {
        String url = "http://localhost:" + target.port() + "/x.png";
        Future<MediaFetcher.Fetched> result = f.fetch(url);
        assertThatThrownBy(result::await).isInstanceOf(MediaFetcher.Refused.class);
        // resolved once, to the public address: the fetch never had the loopback address to connect to, later either
        assertThat(lookups.get()).as("the host is resolved once").isEqualTo(1);
        assertThat(target.accepted()).as("connections to the loopback listener").isZero();
        }
        f.close().await();
    }

    // ---- the download itself (loopback allowed, as in tests and the demo) ----

    static MediaFetcher fetcher(MediaPolicy policy) {
        return new MediaFetcher(guarded.vertx, policy.withAllowPrivate(true));
    }

    static String local(String path) {
        return "http://127.0.0.1:" + filesPort + path;
    }

    static String failure(MediaFetcher f, String url) {
        Future<MediaFetcher.Fetched> result = f.fetch(url);
        assertThatThrownBy(result::await).isInstanceOf(MediaFetcher.Refused.class);
        return result.cause().getMessage();
    }

    @Test
    void followsUpToThreeRedirectsCheckingEach() {
        MediaFetcher f = fetcher(MediaPolicy.DEFAULT);
        MediaFetcher.Fetched png = f.fetch(local("/hop/2")).await();
        assertThat(png.mediaType()).isEqualTo("image/png");
        assertThat(png.base64()).isEqualTo(Samples.TINY_PNG);
        assertThat(failure(f, local("/hop/3"))).contains("more than 3 redirects");
        f.close().await();
    }

    @Test
    void sizeTimeStatusAndTypeLimits() {
        MediaFetcher small = fetcher(new MediaPolicy(true, 10_000, 300, 3));
        assertThat(failure(small, local("/big"))).contains("larger than the gateway's limit of 10000 bytes");
        assertThat(failure(small, local("/silent"))).contains("within 300 ms");
        assertThat(failure(small, local("/missing"))).contains("HTTP 404");
        assertThat(small.fetch(local("/untyped")).await().mediaType()).as("sniffed").isEqualTo("image/png");
        assertThat(failure(small, "http://no-such-host.invalid/x.png")).contains("does not resolve");
        small.close().await();
    }

    @Test
    void failedDownloadsAre400sNamingTheField() {
        try (GatewayHarness open = GatewayHarness.start()) {
            JsonNode missing = refused(open.postAuthed("/api/v1/chat/completions", chatWithImage(local("/missing"))));
            assertThat(missing.path("param").asText()).isEqualTo("messages[0].content[1].image_url.url");
            assertThat(missing.path("message").asText()).contains("HTTP 404");
            JsonNode html = refused(open.postAuthed("/api/v1/chat/completions", chatWithImage(local("/html"))));
            assertThat(html.path("message").asText()).contains("text/html is not one the gateway forwards as an image");
            var ok = open.postAuthed("/api/v1/chat/completions", chatWithImage(local("/hop/1")));
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(Json.parseOrNull(ok.body()).at("/choices/0/message/content").asText()).endsWith("I see 1 image(s).");
        }
    }

    @Test
    void aFileUrlOnlyForwardsFileTypes() {
        // Responses input_file.file_url: an internal JSON answer must not travel on to the vendor as a "file"
        try (GatewayHarness open = GatewayHarness.start()) {
            open.sim.clearReceived();
            String body = "{\"model\":\"vendorC-flash-3\",\"input\":[{\"role\":\"user\",\"content\":["
                    + "{\"type\":\"input_text\",\"text\":\"Summarise\"},"
                    + "{\"type\":\"input_file\",\"file_url\":\"" + local("/internal.json") + "\"}]}]}";
            JsonNode error = refused(open.postAuthed("/api/v1/responses", body));
            assertThat(error.path("param").asText()).isEqualTo("input[0].content[1].file_url");
            assertThat(error.path("message").asText()).contains("application/json is not one the gateway forwards as a file");
            assertThat(open.sim.received()).isEmpty();
        }
    }

    @Test
    void connectsToTheAddressItResolved() {
        // a name only the fetcher's resolver knows: the connection can only go to the address it returned
        MediaFetcher f = new MediaFetcher(guarded.vertx, MediaPolicy.DEFAULT.withAllowPrivate(true),
                MediaFetcher.Network.SYSTEM.withResolver(host -> new InetAddress[]{InetAddress.getByName("127.0.0.1")}));
        MediaFetcher.Fetched png = f.fetch("http://files.invalid:" + filesPort + "/png").await();
        assertThat(png.base64()).isEqualTo(Samples.TINY_PNG);
        f.close().await();
    }

    static String chatWithImages(String... urls) {
        StringBuilder parts = new StringBuilder("{\"type\":\"text\",\"text\":\"Look\"}");
        for (String u : urls) parts.append(",{\"type\":\"image_url\",\"image_url\":{\"url\":\"").append(u).append("\"}}");
        return "{\"model\":\"vendorC-flash-3\",\"messages\":[{\"role\":\"user\",\"content\":[" + parts + "]}]}";
    }

    @Test
    void tooManyMediaUrlsIsA400NamingTheFirstOneOver() {
        // one small request with any number of URLs used to download them all at once (1.7 KB -> +3.1 GB RSS)
        try (GatewayHarness open = GatewayHarness.start()) {
            open.sim.clearReceived();
            String[] urls = new String[21];
            for (int i = 0; i < urls.length; i++) urls[i] = local("/png?n=" + i);
            JsonNode error = refused(open.postAuthed("/api/v1/chat/completions", chatWithImages(urls)));
            assertThat(error.path("param").asText()).isEqualTo("messages[0].content[21].image_url.url");
            assertThat(error.path("message").asText()).contains("20").contains("media.max_items");
            assertThat(open.sim.received()).isEmpty();
            var ok = open.postAuthed("/api/v1/chat/completions", chatWithImages(java.util.Arrays.copyOf(urls, 20)));
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        }
    }

    @Test
    void atMostFourDownloadsAtOnceForOneRequest() {
        slowPeak.set(0);
        try (GatewayHarness open = GatewayHarness.start()) {
            String[] urls = new String[10];
            for (int i = 0; i < urls.length; i++) urls[i] = local("/slow.png?n=" + i);
            var ok = open.postAuthed("/api/v1/chat/completions", chatWithImages(urls));
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(Json.parseOrNull(ok.body()).at("/choices/0/message/content").asText()).endsWith("I see 10 image(s).");
            assertThat(slowPeak.get()).as("downloads running at once").isBetween(1, 4);
        }
    }

    @Test
    void theMediaOfOneRequestShareATotalByteBudget() {
        MediaPolicy tight = MediaPolicy.DEFAULT.withAllowPrivate(true).withRequestLimits(20, 4000, 4, 64);
        try (GatewayHarness open = GatewayHarness.builder().media(tight).start()) {
            open.sim.clearReceived();
            JsonNode error = refused(open.postAuthed("/api/v1/chat/completions",
                    chatWithImages(local("/fat.png?n=1"), local("/fat.png?n=2"), local("/fat.png?n=3"))));
            assertThat(error.path("param").asText()).matches("messages\\[0]\\.content\\[[1-3]]\\.image_url\\.url");
            assertThat(error.path("message").asText()).contains("4000 bytes").contains("media.max_total_bytes");
            assertThat(open.sim.received()).isEmpty();
            var ok = open.postAuthed("/api/v1/chat/completions",
                    chatWithImages(local("/fat.png?n=1"), local("/fat.png?n=2")));
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        }
    }

    @Test
    void theProcessRunsAtMostItsLimitOfDownloadsAtOnce() {
        MediaFetcher f = fetcher(new MediaPolicy(true, 10_000, 500, 3).withRequestLimits(20, 50_000, 4, 1));
        Future<MediaFetcher.Fetched> held = f.fetch(local("/silent"));
        Future<MediaFetcher.Fetched> second = f.fetch(local("/png"));
        assertThatThrownBy(second::await).isInstanceOfSatisfying(dev.modelgateway.error.GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.getMessage()).contains("media.max_concurrent_process");
        });
        assertThatThrownBy(held::await).isInstanceOf(MediaFetcher.Refused.class);
        assertThat(f.fetch(local("/png")).await().base64()).as("the slot is free again").isEqualTo(Samples.TINY_PNG);
        f.close().await();
    }

    /** A TCP listener that only counts connections, to prove a refused URL was never dialled. */
    record ConnectionCounter(ServerSocket socket, AtomicInteger count) implements AutoCloseable {
        static ConnectionCounter on(InetAddress address) throws IOException {
            ServerSocket s = new ServerSocket(0, 50, address);
            ConnectionCounter c = new ConnectionCounter(s, new AtomicInteger());
            Thread.ofVirtual().start(() -> {
                while (!s.isClosed()) {
                    try (Socket ignored = s.accept()) {
                        c.count.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            return c;
        }

        static ConnectionCounter onIfAvailable(InetAddress address) {
            try {
                return on(address);
            } catch (IOException e) {
                return null; // no IPv6 loopback on this machine
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        int accepted() {
            return count.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
