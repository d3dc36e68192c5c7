package dev.modelgateway.e2e.media;

import dev.modelgateway.config.MediaPolicy;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.upstream.MediaFetcher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemTrustOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The media fetcher connects to the exact address it checked (the DNS-rebinding fix), as an IP literal. These
 * tests prove that HTTPS still sends the URL's host name as SNI and verifies the certificate against that name,
 * and that a redirect is checked afresh: a public first hop cannot lead to a private address.
 */
@E2e
class MediaFetchTlsTest {
    static final byte[] PNG = Base64.getDecoder().decode(Samples.TINY_PNG);
    static Vertx vertx;
    static TestCert media;
    static TestCert other;
    /** Serves a certificate for media.test (no IP in it); records the SNI name of each connection. */
    static HttpServer mediaServer;
    /** Serves a certificate for other.test. */
    static HttpServer otherServer;
    static final List<String> sniSeen = new CopyOnWriteArrayList<>();
    static final List<String> hostSeen = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        media = TestCert.forNameOnly("media.test");
        other = TestCert.forNameOnly("other.test");
        mediaServer = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setSni(true).setKeyCertOptions(media.keyCertOptions()))
                .requestHandler(req -> {
                    sniSeen.add(String.valueOf(req.connection().indicatedServerName()));
                    hostSeen.add(String.valueOf(req.authority()));
                    req.response().putHeader("content-type", "image/png").end(Buffer.buffer(PNG));
                }).listen(0, "127.0.0.1").await();
        otherServer = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(other.keyCertOptions()))
                .requestHandler(req -> req.response().putHeader("content-type", "image/png").end(Buffer.buffer(PNG)))
                .listen(0, "127.0.0.1").await();
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    /** Test names that only this resolver knows, all on loopback. */
    static InetAddress[] resolve(String host) throws UnknownHostException {
        if (host.endsWith(".test")) return new InetAddress[]{InetAddress.getByName("127.0.0.1")};
        throw new UnknownHostException(host);
    }

    /** A fetcher on loopback (allowed), trusting both test certificates and nothing else. */
    static MediaFetcher trustingFetcher() {
        PemTrustOptions trust = new PemTrustOptions().addCertPath(media.certPem().toString()).addCertPath(other.certPem().toString());
        return new MediaFetcher(vertx, MediaPolicy.DEFAULT.withAllowPrivate(true),
                new MediaFetcher.Network(MediaFetchTlsTest::resolve, MediaFetcher.Network.SYSTEM.addresses(), trust));
    }

    @Test
    void httpsSendsTheHostNameAsSniAndVerifiesTheCertificateAgainstIt() {
        MediaFetcher f = trustingFetcher();
        sniSeen.clear();
        hostSeen.clear();
        MediaFetcher.Fetched png = f.fetch("https://media.test:" + mediaServer.actualPort() + "/x.png").await();
        assertThat(png.base64()).isEqualTo(Samples.TINY_PNG);
        // the certificate names media.test only: checked against 127.0.0.1 it would have been refused
        assertThat(sniSeen).containsExactly("media.test");
        assertThat(hostSeen.getFirst()).startsWith("media.test");
        f.close().await();
    }

    @Test
    void aCertificateForAnotherNameIsRefused() {
        MediaFetcher f = trustingFetcher();
        // other.test's certificate is trusted, but it is not media.test's
        Future<MediaFetcher.Fetched> wrongName = f.fetch("https://media.test:" + otherServer.actualPort() + "/x.png");
        assertThatThrownBy(wrongName::await).isInstanceOf(MediaFetcher.Refused.class);
        assertThat(f.fetch("https://other.test:" + otherServer.actualPort() + "/x.png").await().base64())
                .as("the same server under its own name").isEqualTo(Samples.TINY_PNG);
        f.close().await();
    }

    @Test
    void anUntrustedCertificateIsRefused() {
        MediaFetcher defaultTrust = new MediaFetcher(vertx, MediaPolicy.DEFAULT.withAllowPrivate(true),
                MediaFetcher.Network.SYSTEM.withResolver(MediaFetchTlsTest::resolve));
        Future<MediaFetcher.Fetched> selfSigned = defaultTrust.fetch("https://media.test:" + mediaServer.actualPort() + "/x.png");
        assertThatThrownBy(selfSigned::await).isInstanceOf(MediaFetcher.Refused.class);
        defaultTrust.close().await();
    }

    // ---- a redirect is checked like the first URL (allow_private=false)

    @Test
    void aPublicFirstHopCannotRedirectToAPrivateAddress() throws Exception {
        // cdn.test is "public" (127.0.0.2 counts as public here, so that a local server can play it); internal.test
        // resolves to 127.0.0.1, a loopback address: the redirect to it must be refused before connecting
        InetAddress cdn = InetAddress.getByName("127.0.0.2");
        try (Listener internal = Listener.on(InetAddress.getByName("127.0.0.1"), 0)) {
            HttpServer first = vertx.createHttpServer().requestHandler(req -> req.response().setStatusCode(302)
                    .putHeader("location", "http://internal.test:" + internal.port() + "/secret").end())
                    .listen(0, cdn.getHostAddress()).await();
            Map<String, InetAddress> dns = Map.of("cdn.test", cdn, "internal.test", InetAddress.getByName("127.0.0.1"));
            MediaFetcher f = new MediaFetcher(vertx, MediaPolicy.DEFAULT, new MediaFetcher.Network(
                    host -> new InetAddress[]{dns.get(host)},
                    a -> a.equals(cdn) ? null : MediaFetcher.Network.SYSTEM.addresses().nonPublicReason(a), null));
            Future<MediaFetcher.Fetched> result = f.fetch("http://cdn.test:" + first.actualPort() + "/x.png");
            assertThatThrownBy(result::await).isInstanceOf(MediaFetcher.Refused.class)
                    .hasMessageContaining("internal.test").hasMessageContaining("is not allowed");
            assertThat(internal.accepted()).as("connections to the private address").isZero();
            f.close().await();
            first.close().await();
        }
    }

    @Test
    void aRedirectBackToTheSameNameIsResolvedAndCheckedAgain() throws Exception {
        // rebinding at the redirect: cdn.test answers a public address first, then loopback
        InetAddress cdn = InetAddress.getByName("127.0.0.2");
        AtomicInteger lookups = new AtomicInteger();
        HttpServer first = vertx.createHttpServer().requestHandler(req -> req.response().setStatusCode(302)
                .putHeader("location", "/again.png").end()).listen(0, cdn.getHostAddress()).await();
        try (Listener loopback = Listener.on(InetAddress.getByName("127.0.0.1"), first.actualPort())) {
            MediaFetcher f = new MediaFetcher(vertx, MediaPolicy.DEFAULT, new MediaFetcher.Network(
                    host -> new InetAddress[]{lookups.getAndIncrement() == 0 ? cdn : InetAddress.getByName("127.0.0.1")},
                    a -> a.equals(cdn) ? null : MediaFetcher.Network.SYSTEM.addresses().nonPublicReason(a), null));
            Future<MediaFetcher.Fetched> result = f.fetch("http://cdn.test:" + first.actualPort() + "/x.png");
            assertThatThrownBy(result::await).isInstanceOf(MediaFetcher.Refused.class).hasMessageContaining("is not allowed");
            assertThat(lookups.get()).as("the redirect's host is resolved again").isEqualTo(2);
            assertThat(loopback.accepted()).isZero();
            f.close().await();
        } finally {
            first.close().await();
        }
    }

    /** A TCP listener that only counts connections, to prove an address was never dialled. */
    record Listener(ServerSocket socket, AtomicInteger count) implements AutoCloseable {
        static Listener on(InetAddress address, int port) throws IOException {
            ServerSocket s = new ServerSocket(port, 50, address);
            Listener l = new Listener(s, new AtomicInteger());
            Thread.ofVirtual().start(() -> {
                while (!s.isClosed()) {
                    try (Socket ignored = s.accept()) {
                        l.count.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            return l;
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
