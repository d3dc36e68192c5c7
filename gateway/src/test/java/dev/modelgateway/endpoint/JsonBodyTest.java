package dev.modelgateway.endpoint;

import dev.modelgateway.json.Json;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A large JSON body is parsed off the event loop: the loop keeps serving its other work meanwhile. */
@Isolated
class JsonBodyTest {
    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private static long gcMillis() {
        // pauses only: G1's concurrent cycles run beside the application and are not left out
        return ManagementFactory.getGarbageCollectorMXBeans().stream().filter(gc -> !gc.getName().contains("Concurrent"))
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }

    /** Tens of megabytes of small objects: the shape that costs Jackson the most per byte. */
    private static Buffer largeBody() {
        StringBuilder json = new StringBuilder(48 * 1024 * 1024).append("{\"model\":\"m\",\"items\":[");
        for (int i = 0; i < 900_000; i++) {
            if (i > 0) json.append(',');
            json.append("{\"role\":\"user\",\"content\":\"hi ").append(i).append("\",\"n\":").append(i).append('}');
        }
        return Buffer.buffer(json.append("]}").toString());
    }

    @Test
    void theEventLoopStaysResponsiveWhileALargeBodyIsParsed() throws Exception {
        Buffer body = largeBody();
        long inlineStart = System.nanoTime();
        Json.parseObject(body);
        long inlineMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - inlineStart);

        // Measured from the moment the whole body has arrived and parsing begins: the upload before it is
        // the client's work, and competes for the two cores whoever parses.
        AtomicLong parseStart = new AtomicLong();
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create(false).setBodyLimit(200L * 1024 * 1024));
        AtomicLong gcAtStart = new AtomicLong();
        router.post("/parse").handler(ctx -> {
            gcAtStart.set(gcMillis());
            parseStart.set(System.nanoTime());
            JsonBody.parse(ctx, parsed -> ctx.response().end(Integer.toString(parsed.path("items").size())));
        });
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();

        // a 5 ms timer on the server's one event loop: how late does it fire while the body is parsed?
        AtomicLong worstLateMs = new AtomicLong();
        AtomicLong last = new AtomicLong(System.nanoTime());
        long timer = vertx.setPeriodic(5, id -> {
            long now = System.nanoTime();
            long previous = last.getAndSet(now);
            long from = Math.max(previous, parseStart.get());
            if (parseStart.get() != 0 && now > from) {
                worstLateMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - from) - 5, Math::max);
            }
        });
        HttpClient client = Vertx.vertx().createHttpClient();
        try {
            String items = client.request(HttpMethod.POST, server.actualPort(), "127.0.0.1", "/parse")
                    .compose(req -> req.send(body)).compose(resp -> resp.body()).await().toString();
            assertThat(items).isEqualTo("900000");
        } finally {
            vertx.cancelTimer(timer);
            client.close();
        }
        // Stop-the-world collections pause every thread, the event loop included, whoever allocates: they are
        // the JVM's, not a block by the code under test, so their time during the parse is left out.
        long gcDuringParse = gcMillis() - gcAtStart.get();
        assertThat(worstLateMs.get() - gcDuringParse).as("worst timer delay on the event loop less %d ms of GC; parsing in place took %d ms", gcDuringParse, inlineMs)
                .isLessThan(Math.max(100, inlineMs / 3));
    }
}
