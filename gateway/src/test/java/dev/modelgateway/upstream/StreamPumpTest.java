package dev.modelgateway.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorAnswerLimits;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.http.ErrorShape;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.wire.anthropic.AnthropicNativeTap;
import dev.modelgateway.wire.openai.chat.ChatNativeTap;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Relay} and {@link StreamPump} without a router: a hand-written vendor on one local server (which
 * sends exactly the bytes a test scripts, when it scripts them, and may cut or hold the connection), a
 * second local server whose handler opens an {@link Exchange} on its response and calls the relay, and a
 * Vert.x client in the caller's place that reads what a caller would see.
 *
 * <p>When the relay fails, the front handler answers {@value #UNTOUCHED_STATUS} {@value #UNTOUCHED_BODY}
 * itself, but only if the relay had written nothing: a caller seeing exactly that knows the relay left the
 * response alone, so a retry or a fallback could still answer it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamPumpTest {
    private static final int UNTOUCHED_STATUS = 418;
    private static final String UNTOUCHED_BODY = "relay-failed-nothing-written";
    private static final long AWAIT_SECONDS = 20;

    private static final String F1 = frame("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}");
    private static final String F2 = frame("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\"Hello\"}}]}");
    private static final String F3 = frame("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{},\"finish_reason\":\"stop\"}]}");
    private static final String USAGE = frame("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":3,\"total_tokens\":14,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":4}}}");
    private static final String DONE = frame("[DONE]");
    private static final Usage USAGE_READ = new Usage(7, 4, 0, 0, 3, 0);

    private static Vertx vertx;

    private HttpServer vendor;
    private HttpServer front;
    private HttpClient caller;
    private VendorClients clients;
    private Relay relay;

    /** What the fake vendor does with each request; set by each test. */
    private volatile Handler<HttpServerRequest> vendorScript;
    /** What the front handler does with its exchange: the relay call under test. */
    private volatile Function<Exchange, Future<RelayOutcome>> relayCall;
    private final AtomicInteger vendorRequests = new AtomicInteger();
    private final List<String> vendorPaths = new ArrayList<>();
    private final Promise<Void> vendorConnectionClosed = Promise.promise();
    private final Promise<Relayed> relayed = Promise.promise();

    /** The relay's result, and whether the caller's response head had been written when it came. */
    record Relayed(AsyncResult<RelayOutcome> result, boolean headWritten) {
        RelayOutcome outcome() {
            assertThat(result.succeeded()).as("relay result %s", result.cause()).isTrue();
            return result.result();
        }

        Throwable failure() {
            assertThat(result.failed()).as("relay should have failed, got %s", result.result()).isTrue();
            return result.cause();
        }
    }

    /** What the caller received: status, headers, body, and the transport error that ended it if any. */
    record Received(int status, MultiMap headers, String body, Throwable error) {
        /** The SSE frames, each with its trailing blank line, in arrival order. */
        List<String> frames() {
            return Arrays.stream(body.split("(?<=\n\n)")).filter(f -> !f.isEmpty()).toList();
        }
    }

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopVertx() {
        await(vertx.close());
    }

    @BeforeEach
    void start() {
        vendor = await(vertx.createHttpServer().requestHandler(req -> {
            vendorRequests.incrementAndGet();
            synchronized (vendorPaths) {
                vendorPaths.add(req.path());
            }
            req.connection().closeHandler(v -> vendorConnectionClosed.tryComplete());
            vendorScript.handle(req);
        }).listen(0, "127.0.0.1"));
        front = await(vertx.createHttpServer().requestHandler(req -> {
            HttpServerResponse out = req.response();
            Exchange ex = Exchange.open(vertx, out, ErrorShape.OPENAI);
            Future<RelayOutcome> result;
            try {
                result = relayCall.apply(ex);
            } catch (RuntimeException e) {
                result = Future.failedFuture(e);
            }
            result.onComplete(ar -> {
                relayed.tryComplete(new Relayed(ar, out.headWritten()));
                if (ar.failed() && !out.headWritten() && !out.closed()) {
                    out.setStatusCode(UNTOUCHED_STATUS).end(UNTOUCHED_BODY);
                }
            });
        }).listen(0, "127.0.0.1"));
        caller = vertx.createHttpClient();
        clients = new VendorClients(vertx);
        relay = new Relay(clients, new CircuitBreakers(CircuitBreaker.Thresholds.DEFAULT), VendorAnswerLimits.DEFAULT);
    }

    @AfterEach
    void stop() {
        await(caller.close());
        await(clients.close());
        await(front.close());
        await(vendor.close());
    }

    // ---- streams that reach the caller

    @Test
    void framesAreRelayedInOrderAsSseWithUsageReadAndTtftSet() {
        // The first frame after 60 ms; the second split across two writes; the usage chunk hidden from the caller.
        vendorScript = req -> script(req, sse(req), 60L, F1, 10L, F2.substring(0, 25), 10L, F2.substring(25), F3,
                USAGE + DONE, END);
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertThat(got.status()).isEqualTo(200);
        assertThat(got.headers().get("content-type")).isEqualTo("text/event-stream; charset=utf-8");
        assertThat(got.headers().get("cache-control")).isEqualTo("no-cache");
        assertThat(got.error()).isNull();
        assertThat(got.frames()).containsExactly(F1, F2, F3, DONE);
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(200);
        assertThat(outcome).isInstanceOf(RelayOutcome.Answered.class);
        assertThat(outcome.usage()).isEqualTo(USAGE_READ);
        assertThat(outcome.ttftMs()).isNotNull().isBetween(60L, 2_000L);
        assertThat(vendorPaths).containsExactly("/v1/chat/completions");
    }

    @Test
    void usageChunkReachesTheCallerWhoAskedForIt() {
        vendorScript = req -> script(req, sse(req), F1 + F2, F3 + USAGE, DONE, END);
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(true),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertThat(got.frames()).containsExactly(F1, F2, F3, USAGE, DONE);
        assertThat(relayed().outcome().usage()).isEqualTo(USAGE_READ);
    }

    @Test
    void vendorCutMidStreamEndsTheCallersStreamWithTheOpenAiErrorEvent() {
        vendorScript = req -> script(req, sse(req), F1, 10L, F2, 30L, CUT);
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertThat(got.status()).isEqualTo(200);
        assertThat(got.error()).as("the caller's stream ends properly, with an error event").isNull();
        List<String> frames = got.frames();
        assertThat(frames).hasSize(3);
        assertThat(frames.subList(0, 2)).containsExactly(F1, F2);
        JsonNode error = dataOf(frames.get(2)).path("error");
        assertThat(error.path("type").asText()).isEqualTo("server_error");
        assertThat(error.path("code").asText()).isEqualTo("upstream_error");
        assertThat(error.path("message").asText()).contains("openai");
        assertThat(got.body()).doesNotContain("[DONE]");
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(502);
        assertThat(outcome).isInstanceOf(RelayOutcome.CutOff.class);
        assertThat(outcome.ttftMs()).isNotNull();
    }

    @Test
    void vendorEndingCleanlyWithoutDoneIsStillACutStream() {
        vendorScript = req -> script(req, sse(req), F1, 10L, F2, END);
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertThat(got.status()).isEqualTo(200);
        List<String> frames = got.frames();
        assertThat(frames).hasSize(3);
        assertThat(frames.subList(0, 2)).containsExactly(F1, F2);
        JsonNode error = dataOf(frames.get(2)).path("error");
        assertThat(error.path("code").asText()).isEqualTo("upstream_error");
        assertThat(error.path("message").asText()).contains("ended the stream before it was complete");
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(502);
        assertThat(outcome).isInstanceOf(RelayOutcome.CutOff.class);
    }

    @Test
    void anthropicStreamCutMidStreamEndsWithItsOwnErrorEvent() {
        String start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                + "\"usage\":{\"input_tokens\":9,\"output_tokens\":1}}}\n\n";
        String delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n";
        vendorScript = req -> script(req, sse(req), start, 10L, delta, 30L, CUT);
        relayCall = ex -> relay.stream(ex, anthropicRequest(Deadline.ofMillis(5_000)), new AnthropicNativeTap(ex.traceId(), id -> { }),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        List<String> frames = got.frames();
        assertThat(frames).hasSize(3);
        assertThat(frames.subList(0, 2)).containsExactly(start, delta);
        assertThat(frames.get(2)).startsWith("event: error\ndata: ");
        JsonNode error = dataOf(frames.get(2));
        assertThat(error.path("type").asText()).isEqualTo("error");
        assertThat(error.path("error").path("type").asText()).isEqualTo("api_error");
        assertThat(error.path("request_id").asText()).isNotEmpty();
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(502);
        assertThat(outcome.usage().inputTokens()).isEqualTo(9);
    }

    @Test
    void silenceAfterTheFirstFrameEndsTheStreamWithAnIdleTimeoutEvent() {
        // The vendor sends one frame and then holds the connection open without a word.
        vendorScript = req -> script(req, sse(req), F1);
        relayCall = ex -> relay.stream(ex, request(new Deadline(System.nanoTime() + 10_000_000_000L, 200)),
                new ChatNativeTap(false), VendorErrorMapper.NATIVE);

        long t0 = System.nanoTime();
        Received got = call(null);
        long tookMs = (System.nanoTime() - t0) / 1_000_000;

        assertThat(got.status()).isEqualTo(200);
        List<String> frames = got.frames();
        assertThat(frames).hasSize(2);
        assertThat(frames.getFirst()).isEqualTo(F1);
        JsonNode error = dataOf(frames.get(1)).path("error");
        assertThat(error.path("code").asText()).isEqualTo("idle_timeout");
        assertThat(error.path("type").asText()).isEqualTo("timeout_error");
        assertThat(tookMs).isBetween(200L, 3_000L);
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(502);
        assertThat(outcome).isInstanceOf(RelayOutcome.CutOff.class);
        awaitVendorConnectionClosed();
    }

    @Test
    void callerDisconnectingMidStreamResetsTheVendorCall() {
        streamForeverUntilClosed();
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        // The caller goes away as soon as the stream has begun.
        Received got = call(resp -> resp.request().connection().close());

        assertThat(got.status()).isEqualTo(200);
        assertThat(got.body()).startsWith(F1);
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome).isInstanceOf(RelayOutcome.CallerLeft.class);
        assertThat(outcome.ttftMs()).isNotNull();
        awaitVendorConnectionClosed();
    }

    /**
     * RelayOutcome documents 499 for a caller who went away first, and the relay keeps such a call out of the
     * breaker's count. Vert.x delivers the pump's reset of the upstream request synchronously to the upstream
     * exception handler, so the pump must complete with 499 before resetting, or the call ends as the vendor's
     * 502 and callers leaving mid-stream can open the breaker (found by this test).
     */
    @Test
    void callerDisconnectingMidStreamCounts499AndLeavesTheBreakerClosed() {
        Relay guarded = new Relay(clients, new CircuitBreakers(new CircuitBreaker.Thresholds(1, Duration.ofSeconds(30))), VendorAnswerLimits.DEFAULT);
        streamForeverUntilClosed();
        relayCall = ex -> guarded.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        call(resp -> resp.request().connection().close());

        assertThat(relayed().outcome()).isInstanceOf(RelayOutcome.CallerLeft.class);
        // One failure would open this breaker; the caller's departure must not count as one.
        vendorScript = req -> script(req, sse(req), F1, DONE, END);
        assertThat(call(null).frames()).containsExactly(F1, DONE);
        assertThat(vendorRequests).hasValue(2);
    }

    // ---- failures before the first byte: nothing written, the attempt can be retried

    @Test
    void vendorStatusErrorFailsWithVendorErrorAndWritesNothing() {
        String body = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}";
        vendorScript = req -> req.response().setStatusCode(429).putHeader("retry-after", "2")
                .putHeader("content-type", "application/json").end(body);
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertUntouched(got);
        Relayed r = relayed();
        assertThat(r.headWritten()).isFalse();
        assertThat(r.failure()).isInstanceOfSatisfying(VendorError.class, e -> {
            assertThat(e.status()).isEqualTo(429);
            assertThat(e.body().toString()).isEqualTo(body);
            assertThat(e.headers().get("retry-after")).isEqualTo("2");
        });
    }

    @Test
    void errorEventAsTheFirstFrameFailsTheAttemptAndWritesNothing() {
        vendorScript = req -> script(req, sse(req), frame("{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}"));
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertUntouched(got);
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.UPSTREAM));
        awaitVendorConnectionClosed();
    }

    @Test
    void vendorCutBeforeAnyFrameFailsAndWritesNothing() {
        vendorScript = req -> script(req, sse(req), 20L, CUT);
        relayCall = ex -> relay.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertUntouched(got);
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.status()).isEqualTo(502));
    }

    @Test
    void silenceBeforeTheFirstFrameFailsWithIdleTimeoutAndWritesNothing() {
        // Vert.x's own idle timeout stops at the response head: after it, only the pump watches the silence.
        vendorScript = req -> sse(req).writeHead();
        relayCall = ex -> relay.stream(ex, request(new Deadline(System.nanoTime() + 10_000_000_000L, 200)),
                new ChatNativeTap(false), VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertUntouched(got);
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(504);
            assertThat(e.code()).isEqualTo("idle_timeout");
        });
        awaitVendorConnectionClosed();
    }

    @Test
    void deadlinePassingBeforeTheFirstByteFailsWith504AndResetsTheVendorCall() {
        // The vendor takes the request and never answers.
        vendorScript = req -> { };
        relayCall = ex -> relay.stream(ex, request(new Deadline(System.nanoTime() + 150_000_000L, 5_000)),
                new ChatNativeTap(false), VendorErrorMapper.NATIVE);

        long t0 = System.nanoTime();
        Received got = call(null);
        long tookMs = (System.nanoTime() - t0) / 1_000_000;

        assertUntouched(got);
        assertThat(tookMs).isBetween(150L, 3_000L);
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(504);
            assertThat(e.kind()).isEqualTo(ErrorKind.TIMEOUT);
            assertThat(e.code()).isEqualTo("deadline_exceeded");
        });
        awaitVendorConnectionClosed();
    }

    @Test
    void passedDeadlineFailsWithoutCallingTheVendor() {
        vendorScript = req -> script(req, sse(req), F1, DONE, END);
        relayCall = ex -> relay.stream(ex, request(new Deadline(System.nanoTime() - 1, 5_000)),
                new ChatNativeTap(false), VendorErrorMapper.NATIVE);

        assertUntouched(call(null));
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.code()).isEqualTo("deadline_exceeded"));
        assertThat(vendorRequests).hasValue(0);
    }

    @Test
    void openCircuitBreakerRefusesWithoutCallingTheVendor() {
        Relay guarded = new Relay(clients, new CircuitBreakers(new CircuitBreaker.Thresholds(1, Duration.ofSeconds(30))), VendorAnswerLimits.DEFAULT);
        vendorScript = req -> req.response().setStatusCode(500).end("{\"error\":{\"message\":\"boom\"}}");
        relayCall = ex -> guarded.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        // One 500 opens a breaker whose threshold is one failure.
        assertUntouched(call(null));
        assertThat(relayed().failure()).isInstanceOf(VendorError.class);

        Promise<Relayed> second = Promise.promise();
        relayCall = ex -> {
            Future<RelayOutcome> f = guarded.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                    VendorErrorMapper.NATIVE);
            return f.andThen(ar -> second.tryComplete(new Relayed(ar, ex.response().headWritten())));
        };
        assertUntouched(call(null));
        Relayed refused = await(second.future());
        assertThat(refused.failure()).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.code()).isEqualTo("circuit_open");
            assertThat(Long.parseLong(e.headers().get("retry-after"))).isBetween(1L, 30L);
        });
        assertThat(vendorRequests).hasValue(1);
    }

    // ---- JSON answers

    @Test
    void jsonAnswerIsRelayedWithItsUsage() {
        String body = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":5}}";
        vendorScript = req -> req.response().putHeader("content-type", "application/json").end(body);
        relayCall = ex -> relay.json(ex, request(Deadline.ofMillis(5_000)),
                b -> new JsonAnswer.Answer(b, new Usage(2, 0, 0, 0, 5, 0)), VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertThat(got.status()).isEqualTo(200);
        assertThat(got.headers().get("content-type")).isEqualTo("application/json");
        assertThat(got.body()).isEqualTo(body);
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(200);
        assertThat(outcome.usage()).isEqualTo(new Usage(2, 0, 0, 0, 5, 0));
        assertThat(outcome.ttftMs()).isNotNull();
    }

    @Test
    void jsonDeadlinePassingWhileTheVendorThinksFailsWith504() {
        vendorScript = req -> vertx.setTimer(2_000, id -> {
            if (!req.response().closed()) req.response().end("{}");
        });
        relayCall = ex -> relay.json(ex, request(new Deadline(System.nanoTime() + 150_000_000L, 5_000)),
                b -> new JsonAnswer.Answer(b, Usage.ZERO), VendorErrorMapper.NATIVE);

        assertUntouched(call(null));
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.code()).isEqualTo("deadline_exceeded"));
        awaitVendorConnectionClosed();
    }

    // ---- caps on what the vendor sends back

    @Test
    void jsonAnswerLargerThanTheLimitFailsWith502AndWritesNothing() {
        // a 300 MB answer took the gateway to 5.7 GB RSS: the body is read whole, so it is capped
        Relay capped = new Relay(clients, new CircuitBreakers(CircuitBreaker.Thresholds.DEFAULT),
                new VendorAnswerLimits(4_096, VendorAnswerLimits.DEFAULT.maxStreamSeconds(), VendorAnswerLimits.DEFAULT.maxEventBytes()));
        vendorScript = req -> {
            HttpServerResponse resp = req.response().setChunked(true).putHeader("content-type", "application/json");
            resp.write("{\"pad\":\"");
            long timer = vertx.setPeriodic(5, id -> resp.write("x".repeat(1_000)));
            req.connection().closeHandler(v -> {
                vertx.cancelTimer(timer);
                vendorConnectionClosed.tryComplete();
            });
        };
        relayCall = ex -> capped.json(ex, request(Deadline.ofMillis(5_000)),
                b -> new JsonAnswer.Answer(b, Usage.ZERO), VendorErrorMapper.NATIVE);

        assertUntouched(call(null));
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(502);
            assertThat(e.code()).isEqualTo("upstream_answer_too_large");
            assertThat(e.getMessage()).contains("limit of 4096 bytes");
        });
        awaitVendorConnectionClosed();
    }

    @Test
    void jsonAnswerDeclaringATooLargeLengthFailsBeforeReadingIt() {
        Relay capped = new Relay(clients, new CircuitBreakers(CircuitBreaker.Thresholds.DEFAULT),
                new VendorAnswerLimits(4_096, VendorAnswerLimits.DEFAULT.maxStreamSeconds(), VendorAnswerLimits.DEFAULT.maxEventBytes()));
        vendorScript = req -> req.response().putHeader("content-type", "application/json")
                .putHeader("content-length", "300000000").write("{");
        relayCall = ex -> capped.json(ex, request(Deadline.ofMillis(5_000)),
                b -> new JsonAnswer.Answer(b, Usage.ZERO), VendorErrorMapper.NATIVE);

        assertUntouched(call(null));
        assertThat(relayed().failure()).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.code()).isEqualTo("upstream_answer_too_large"));
        awaitVendorConnectionClosed();
    }

    @Test
    void streamLongerThanTheLimitEndsWithAnErrorEvent() {
        // a vendor trickling frames for ever never trips the idle timeout: the stream's whole life is capped
        Relay capped = new Relay(clients, new CircuitBreakers(CircuitBreaker.Thresholds.DEFAULT),
                new VendorAnswerLimits(VendorAnswerLimits.DEFAULT.maxAnswerBytes(), 1, VendorAnswerLimits.DEFAULT.maxEventBytes()));
        streamForeverUntilClosed();
        relayCall = ex -> capped.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        long t0 = System.nanoTime();
        Received got = call(null);
        long tookMs = (System.nanoTime() - t0) / 1_000_000;

        assertThat(got.status()).isEqualTo(200);
        assertThat(got.error()).isNull();
        List<String> frames = got.frames();
        assertThat(frames.getFirst()).isEqualTo(F1);
        assertThat(frames.size()).isGreaterThan(2);
        JsonNode error = dataOf(frames.getLast()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("stream_too_long");
        assertThat(error.path("message").asText()).contains("limit of 1 s (server.max_vendor_stream_seconds)");
        assertThat(tookMs).isBetween(1_000L, 4_000L);
        RelayOutcome outcome = relayed().outcome();
        assertThat(outcome.status()).isEqualTo(502);
        assertThat(outcome).isInstanceOf(RelayOutcome.CutOff.class);
        awaitVendorConnectionClosed();
    }

    @Test
    void eventLargerThanTheLimitEndsTheStreamWithAnErrorEvent() {
        // an event that never ends grew the SSE parser's line buffer without bound
        Relay capped = new Relay(clients, new CircuitBreakers(CircuitBreaker.Thresholds.DEFAULT),
                new VendorAnswerLimits(VendorAnswerLimits.DEFAULT.maxAnswerBytes(), VendorAnswerLimits.DEFAULT.maxStreamSeconds(), 4_096));
        vendorScript = req -> {
            HttpServerResponse resp = sse(req);
            resp.write(F1);
            resp.write("data: {\"pad\":\"");
            long timer = vertx.setPeriodic(5, id -> resp.write("x".repeat(1_000)));
            req.connection().closeHandler(v -> {
                vertx.cancelTimer(timer);
                vendorConnectionClosed.tryComplete();
            });
        };
        relayCall = ex -> capped.stream(ex, request(Deadline.ofMillis(5_000)), new ChatNativeTap(false),
                VendorErrorMapper.NATIVE);

        Received got = call(null);

        assertThat(got.status()).isEqualTo(200);
        List<String> frames = got.frames();
        assertThat(frames).hasSize(2);
        assertThat(frames.getFirst()).isEqualTo(F1);
        JsonNode error = dataOf(frames.get(1)).path("error");
        assertThat(error.path("code").asText()).isEqualTo("upstream_event_too_large");
        assertThat(error.path("message").asText()).contains("limit of 4096 bytes");
        assertThat(relayed().outcome().status()).isEqualTo(502);
        awaitVendorConnectionClosed();
    }

    // ---- helpers

    /** Ends the vendor's response normally (the last chunk). */
    private static final Object END = new Object();
    /** Closes the vendor's connection where it stands. */
    private static final Object CUT = new Object();

    /** The vendor streams one frame every 20 ms, forever, until its connection goes away. */
    private void streamForeverUntilClosed() {
        vendorScript = req -> {
            HttpServerResponse resp = sse(req);
            resp.write(F1);
            long timer = vertx.setPeriodic(20, id -> resp.write(F2));
            req.connection().closeHandler(v -> {
                vertx.cancelTimer(timer);
                vendorConnectionClosed.tryComplete();
            });
        };
    }

    private static String frame(String data) {
        return "data: " + data + "\n\n";
    }

    private static HttpServerResponse sse(HttpServerRequest req) {
        return req.response().setChunked(true).putHeader("content-type", "text/event-stream");
    }

    /**
     * Plays a vendor's answer step by step: a String is written, a Long waits that many milliseconds,
     * {@link #END} ends the response and {@link #CUT} closes the connection.
     */
    private static void script(HttpServerRequest req, HttpServerResponse resp, Object... steps) {
        play(req, resp, steps, 0);
    }

    private static void play(HttpServerRequest req, HttpServerResponse resp, Object[] steps, int i) {
        if (i == steps.length || resp.closed()) return;
        Object step = steps[i];
        if (step instanceof Long ms) {
            vertx.setTimer(ms, id -> play(req, resp, steps, i + 1));
            return;
        }
        if (step == END) resp.end();
        else if (step == CUT) req.connection().close();
        else resp.write((String) step);
        play(req, resp, steps, i + 1);
    }

    private VendorRequest request(Deadline deadline) {
        VendorEndpoint endpoint = new VendorEndpoint(Vendor.OPENAI, "http://127.0.0.1:" + vendor.actualPort() + "/v1", "sk-test");
        return new VendorRequest(endpoint, "/chat/completions", MultiMap.caseInsensitiveMultiMap()
                .set("content-type", "application/json"), Buffer.buffer("{\"model\":\"m\",\"stream\":true}"), deadline);
    }

    private VendorRequest anthropicRequest(Deadline deadline) {
        VendorEndpoint endpoint = new VendorEndpoint(Vendor.ANTHROPIC, "http://127.0.0.1:" + vendor.actualPort(), "sk-ant-test");
        return new VendorRequest(endpoint, "/v1/messages", MultiMap.caseInsensitiveMultiMap()
                .set("content-type", "application/json"), Buffer.buffer("{\"model\":\"m\",\"stream\":true}"), deadline);
    }

    /**
     * Calls the front server as a caller would and reads the whole answer.
     *
     * @param onFirstChunk what the caller does once the first bytes arrived (null: keep reading)
     */
    private Received call(Consumer<HttpClientResponse> onFirstChunk) {
        Promise<Received> done = Promise.promise();
        // The handlers are set on the event loop as the response arrives: set from this thread, once the future
        // had completed, they could come after a short answer had already ended ("Response already ended").
        caller.request(HttpMethod.GET, front.actualPort(), "127.0.0.1", "/").compose(r -> r.send().andThen(ar -> {
            if (ar.failed()) return;
            HttpClientResponse resp = ar.result();
            Buffer body = Buffer.buffer();
            resp.handler(chunk -> {
                boolean first = body.length() == 0;
                body.appendBuffer(chunk);
                if (first && onFirstChunk != null) onFirstChunk.accept(resp);
            });
            resp.exceptionHandler(t -> done.tryComplete(new Received(resp.statusCode(), resp.headers(), body.toString(), t)));
            resp.endHandler(v -> done.tryComplete(new Received(resp.statusCode(), resp.headers(), body.toString(), null)));
        })).onFailure(done::tryFail);
        return await(done.future());
    }

    private Relayed relayed() {
        return await(relayed.future());
    }

    private void awaitVendorConnectionClosed() {
        await(vendorConnectionClosed.future());
    }

    private static void assertUntouched(Received got) {
        assertThat(got.status()).as("the relay wrote nothing").isEqualTo(UNTOUCHED_STATUS);
        assertThat(got.body()).isEqualTo(UNTOUCHED_BODY);
    }

    private static JsonNode dataOf(String frame) {
        String data = frame.lines().filter(l -> l.startsWith("data: ")).findFirst().orElseThrow().substring(6);
        JsonNode node = Json.parseOrNull(data);
        assertThat(node).as("JSON in %s", frame).isNotNull();
        return node;
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed", e.getCause());
        } catch (Exception e) {
            throw new AssertionError("no result within " + AWAIT_SECONDS + " s", e);
        }
    }
}
