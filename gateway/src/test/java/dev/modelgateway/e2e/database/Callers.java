package dev.modelgateway.e2e.database;

import dev.modelgateway.http.TraceId;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Callers that send vendor A's messages calls to a gateway in a loop until stopped, each call's outcome kept: the
 * load under which a test fails over, backs up or restores the database.
 */
final class Callers implements AutoCloseable {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    private static final String BODY = "{\"model\":\"" + MODEL + "\",\"max_tokens\":32,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    /** One call: its trace id (null when no answer came), status (0 then) and when it ended (System.nanoTime). */
    record Call(String traceId, int status, long endedNanos, String error) {
        boolean answered() {
            return status == 200;
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final ExecutorService threads;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Queue<Call> calls = new ConcurrentLinkedQueue<>();

    Callers(String baseUrl, String key, int concurrency) {
        threads = Executors.newFixedThreadPool(concurrency);
        for (int i = 0; i < concurrency; i++) {
            threads.submit(() -> {
                while (!stopped.get()) calls.add(call(baseUrl, key));
                return null;
            });
        }
    }

    private Call call(String baseUrl, String key) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/messages"))
                    .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
                    .header("authorization", "Bearer " + key).POST(HttpRequest.BodyPublishers.ofString(BODY)).build(),
                    HttpResponse.BodyHandlers.ofString());
            boolean complete = r.statusCode() != 200 || r.body().contains("\"usage\"");
            return new Call(r.headers().firstValue(TraceId.HEADER).orElse(null), complete ? r.statusCode() : 0,
                    System.nanoTime(), r.statusCode() == 200 ? null : r.body());
        } catch (Exception e) {
            return new Call(null, 0, System.nanoTime(), e.toString());
        }
    }

    long answered() {
        return calls.stream().filter(Call::answered).count();
    }

    /** Answers that ended after {@code nanos} (System.nanoTime). */
    long answeredAfter(long nanos) {
        return calls.stream().filter(c -> c.answered() && c.endedNanos() - nanos > 0).count();
    }

    /** Stops the callers, waiting for the calls in flight to end; every call made, in the order they ended. */
    List<Call> stop() throws InterruptedException {
        stopped.set(true);
        threads.shutdown();
        assertThat(threads.awaitTermination(90, TimeUnit.SECONDS)).isTrue();
        List<Call> all = new ArrayList<>(calls);
        all.sort((a, b) -> Long.compare(a.endedNanos(), b.endedNanos()));
        return all;
    }

    /**
     * The longest time without an answer, from {@code fromNanos} to the last answer (the failover's gap as callers
     * saw it).
     */
    static Duration longestPause(List<Call> calls, long fromNanos) {
        long last = fromNanos;
        long longest = 0;
        for (Call c : calls) {
            if (!c.answered() || c.endedNanos() - fromNanos < 0) continue;
            longest = Math.max(longest, c.endedNanos() - last);
            last = c.endedNanos();
        }
        return Duration.ofNanos(longest);
    }

    /** How many calls ended with each status other than 200 (0: no answer), with a sample error each. */
    static Map<Integer, String> failures(List<Call> calls) {
        return calls.stream().filter(c -> !c.answered()).collect(Collectors.groupingBy(Call::status,
                Collectors.collectingAndThen(Collectors.toList(), l -> l.size() + "x, e.g. " + abbreviate(l.getFirst().error()))));
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    @Override
    public void close() throws InterruptedException {
        if (!stopped.get()) stop();
        http.close();
    }
}
