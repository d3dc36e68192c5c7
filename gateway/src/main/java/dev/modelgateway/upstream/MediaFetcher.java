package dev.modelgateway.upstream;

import dev.modelgateway.config.MediaPolicy;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.net.AddressClass;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.TrustOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Downloads a medium a caller gave by URL, for vendors that only take inline bytes, without letting the
 * URL reach into the gateway's own network (SSRF): only http(s); the host is resolved first and every
 * address it resolves to must be public (unless {@link MediaPolicy#allowPrivate()}); the connection goes to
 * an address that was checked, so a second DNS answer cannot swap in another one; each redirect is checked
 * the same way. Size and time are capped. DNS runs on a worker thread, the HTTP exchange on the caller's
 * event loop.
 */
public final class MediaFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(MediaFetcher.class);
    /** A downloaded medium; {@code mediaType} is null when neither the server nor the bytes tell. */
    public record Fetched(String mediaType, String base64, long bytes) {
    }

    /** Why a URL was not fetched; the message is meant for the caller. */
    public static final class Refused extends RuntimeException {
        public Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Host name to addresses; blocking (it runs on a worker thread). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Whether an address is public: null when it is, else what it is (for the caller's message). */
    @FunctionalInterface
    public interface AddressCheck {
        String nonPublicReason(InetAddress address);
    }

    /**
     * The network as the fetcher sees it: DNS, which addresses count as public, and which TLS certificates are
     * trusted (null: the JVM's default trust store). Tests replace parts of it to fetch from loopback servers
     * under test names.
     */
    public record Network(Resolver resolver, AddressCheck addresses, TrustOptions trust) {
        public static final Network SYSTEM = new Network(InetAddress::getAllByName, AddressClass::nonPublicReason, null);

        public Network withResolver(Resolver r) {
            return new Network(r, addresses, trust);
        }
    }

    private final Vertx vertx;
    private final MediaPolicy policy;
    private final Network network;
    private final HttpClientAgent client;

    public MediaFetcher(Vertx vertx, MediaPolicy policy) {
        this(vertx, policy, Network.SYSTEM);
    }

    public MediaFetcher(Vertx vertx, MediaPolicy policy, Network network) {
        this.vertx = vertx;
        this.policy = policy;
        this.network = network;
        HttpClientOptions options = new HttpClientOptions()
                .setConnectTimeout((int) Math.min(policy.timeoutMs(), Integer.MAX_VALUE))
                .setKeepAlive(false)
                // the size cap counts bytes on the wire; inflating would let a small body grow past it
                .setDecompressionSupported(false)
                // the connection goes to an IP literal: SNI and the certificate check must use the URL's host name
                .setForceSni(true)
                .setVerifyHost(true)
                .setTrustAll(false);
        if (network.trust() != null) options.setTrustOptions(network.trust());
        this.client = vertx.createHttpClient(options);
    }

    /** Downloads running now in the whole process, across the event loops' fetchers. */
    private static final AtomicInteger RUNNING = new AtomicInteger();

    public MediaPolicy policy() {
        return policy;
    }

    public Future<Fetched> fetch(String url) {
        return fetch(url, policy.maxBytes());
    }

    /**
     * @param limit the most bytes accepted for this medium (at most {@link MediaPolicy#maxBytes()}; less when
     *              the request's total budget has less left)
     */
    public Future<Fetched> fetch(String url, long limit) {
        if (RUNNING.incrementAndGet() > policy.maxConcurrentAll()) {
            RUNNING.decrementAndGet();
            return Future.failedFuture(GatewayException.of(ErrorKind.UNAVAILABLE, "The gateway is already downloading "
                    + policy.maxConcurrentAll() + " media URLs (media.max_concurrent_process); try again shortly.")
                    .withCode("media_fetch_busy").withHeaders(Map.of("retry-after", "1")));
        }
        Promise<Fetched> result = Promise.promise();
        result.future().onComplete(ar -> RUNNING.decrementAndGet());
        Download d = new Download(result, Math.min(limit, policy.maxBytes()));
        long timer = vertx.setTimer(policy.timeoutMs(), t -> d.fail(
                new Refused("no complete answer within " + policy.timeoutMs() + " ms")));
        result.future().onComplete(ar -> vertx.cancelTimer(timer));
        d.get(url, policy.maxRedirects());
        return result.future();
    }

    public Future<Void> close() {
        return client.close();
    }

    /** One fetch, possibly over several redirects; the first failure wins and aborts the exchange. */
    private final class Download {
        private final Promise<Fetched> result;
        private final long limit;
        private HttpClientRequest current;

        Download(Promise<Fetched> result, long limit) {
            this.result = result;
            this.limit = limit;
        }

        void get(String url, int redirectsLeft) {
            URI uri;
            try {
                uri = new URI(url);
            } catch (Exception e) {
                fail(new Refused("not a valid URL"));
                return;
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                fail(new Refused("only http and https URLs are fetched, got '" + (scheme.isEmpty() ? url : scheme + ":") + "'"));
                return;
            }
            String host = uri.getHost();
            if (host == null || host.isEmpty()) {
                fail(new Refused("the URL has no host"));
                return;
            }
            String bareHost = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            vertx.executeBlocking(() -> network.resolver().resolve(bareHost), false).onComplete(ar -> {
                if (result.future().isComplete()) return;
                if (ar.failed()) {
                    fail(new Refused(ar.cause() instanceof UnknownHostException
                            ? "host '" + bareHost + "' does not resolve" : "resolving '" + bareHost + "' failed"));
                    return;
                }
                InetAddress[] addresses = ar.result();
                if (!policy.allowPrivate()) {
                    for (InetAddress a : addresses) {
                        String why = network.addresses().nonPublicReason(a);
                        if (why != null) {
                            // what an internal name resolves to is the operator's to know, not the caller's
                            LOG.debug("media URL refused: host '{}' resolves to {} ({})", bareHost, why, a.getHostAddress());
                            fail(new Refused("the address of host '" + bareHost + "' is not allowed; the gateway only"
                                    + " fetches from public addresses"));
                            return;
                        }
                    }
                }
                connect(uri, scheme.equals("https"), bareHost, port, addresses[0], redirectsLeft);
            });
        }

        private void connect(URI uri, boolean tls, String bareHost, int port, InetAddress checked, int redirectsLeft) {
            // The server is the checked address as an IP literal: a SocketAddress that still carries the host
            // name is resolved again by Vert.x, and a rebinding DNS server answers differently the second time.
            // The request's host (Host header, SNI, certificate name) stays the original name.
            SocketAddress server = SocketAddress.inetSocketAddress(port, checked.getHostAddress());
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            RequestOptions options = new RequestOptions()
                    .setMethod(HttpMethod.GET)
                    .setServer(server)
                    .setHost(bareHost)
                    .setPort(port)
                    .setSsl(tls)
                    .setURI(uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery())
                    .setFollowRedirects(false)
                    .putHeader("accept", "image/*, application/pdf, audio/*, */*;q=0.1")
                    .putHeader("user-agent", "model-gateway-media-fetcher");
            client.request(options).compose(req -> {
                if (result.future().isComplete()) {
                    req.reset();
                    return Future.failedFuture("abandoned");
                }
                current = req;
                // an exchange this class abandoned itself (redirect, failure) reports its reset too: ignored
                req.exceptionHandler(e -> {
                    if (current == req) fail(transportRefusal("the download broke off", e));
                });
                return req.send();
            }).onComplete(ar -> {
                if (result.future().isComplete()) return;
                if (ar.failed()) {
                    fail(transportRefusal("could not download it", ar.cause()));
                    return;
                }
                answer(uri, ar.result(), redirectsLeft);
            });
        }

        private void answer(URI uri, HttpClientResponse resp, int redirectsLeft) {
            resp.exceptionHandler(e -> {
                if (current == resp.request()) fail(transportRefusal("the download broke off", e));
            });
            int status = resp.statusCode();
            String location = resp.getHeader("location");
            if (status >= 300 && status < 400 && location != null) {
                abandon();
                if (redirectsLeft == 0) {
                    fail(new Refused("more than " + policy.maxRedirects() + " redirects"));
                    return;
                }
                String next;
                try {
                    next = uri.resolve(location.trim()).toString();
                } catch (IllegalArgumentException e) {
                    fail(new Refused("redirected to an invalid URL"));
                    return;
                }
                get(next, redirectsLeft - 1);
                return;
            }
            if (status != 200) {
                fail(new Refused("the server answered HTTP " + status));
                return;
            }
            String length = resp.getHeader("content-length");
            if (length != null && parseOr(length, -1) > limit) {
                fail(tooLarge());
                return;
            }
            Buffer body = Buffer.buffer();
            resp.handler(chunk -> {
                if (result.future().isComplete()) return;
                if (body.length() + chunk.length() > limit) {
                    fail(tooLarge());
                    return;
                }
                body.appendBuffer(chunk);
            });
            resp.endHandler(v -> {
                if (result.future().isComplete()) return;
                byte[] bytes = body.getBytes();
                result.tryComplete(new Fetched(MediaTypes.of(resp.getHeader("content-type"), bytes),
                        Base64.getEncoder().encodeToString(bytes), bytes.length));
            });
        }

        private Refused tooLarge() {
            return new Refused(limit < policy.maxBytes()
                    ? "larger than the " + limit + " bytes left of the gateway's limit of " + policy.maxTotalBytes()
                            + " bytes for all media of one request (media.max_total_bytes)"
                    : "larger than the gateway's limit of " + policy.maxBytes() + " bytes");
        }

        void fail(Refused reason) {
            if (result.tryFail(reason)) abandon();
        }

        private void abandon() {
            HttpClientRequest r = current;
            current = null;
            if (r != null) r.reset();
        }
    }

    private static long parseOr(String s, long dflt) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /**
     * A transport failure as the caller may see it: what happened, never the address it resolved to or the
     * low-level message (which would tell a caller about internal hosts); the detail goes to the log.
     */
    private static Refused transportRefusal(String what, Throwable cause) {
        LOG.info("media download failed ({}): {}", what, String.valueOf(cause));
        return new Refused(what + " (" + switch (cause) {
            case ConnectException c -> "connection refused";
            case UnknownHostException u -> "unknown host";
            case HttpClosedException c -> "connection closed";
            case TimeoutException t -> "timed out";
            default -> "network error";
        } + ")");
    }
}
