package dev.modelgateway.e2e.server;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.DeploymentOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 30 MB JSON body, after its parse (on a worker thread, endpoint/JsonBody): validation and the copy sent
 * upstream must not stall the gateway's event loops either (docs/security.md). A 5 ms timer on every event
 * loop measures how late it fires while the gateway handles the body.
 */
class LargeBodyEventLoopTest {
    static Vertx simVertx;
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        // the simulator on its own Vert.x: its own parsing of the 30 MB is not the gateway's
        simVertx = Vertx.vertx();
        VendorSimulator sim = VendorSimulator.start(simVertx, 0).await();
        h = GatewayHarness.builder().simulator(sim).start();
    }

    @AfterAll
    static void stop() {
        h.close();
        simVertx.close().await();
    }

    /** About 30 MB of chat messages: many small objects, the shape that costs the most per byte. */
    static String largeChat(String model) {
        StringBuilder json = new StringBuilder(32 * 1024 * 1024).append("{\"model\":\"").append(model).append("\",\"messages\":[");
        for (int i = 0; i < 330_000; i++) {
            if (i > 0) json.append(',');
            json.append("{\"role\":\"").append(i % 2 == 0 ? "user" : "assistant").append("\",\"content\":\"message number ")
                    .append(i).append(" of a long conversation\"}");
        }
        json.append(",{\"role\":\"user\",\"content\":\"Hello\"}]}");
        return json.toString();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().filter(gc -> !gc.getName().contains("Concurrent"))
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }

    /** A timer on one event loop that records how late it fires. */
    static final class Probe extends VerticleBase {
        static final AtomicLong worstLateMs = new AtomicLong();
        private long last;

        @Override
        public Future<?> start() {
            last = System.nanoTime();
            vertx.setPeriodic(5, id -> {
                long now = System.nanoTime();
                worstLateMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - last) - 5, Math::max);
                last = now;
            });
            return Future.succeededFuture();
        }
    }

    /**
     * The worst delay of a 5 ms timer on any event loop while {@code model} answers a 30 MB body, less the
     * stop-the-world GC pauses meanwhile: those stop every thread whoever allocates, and are the JVM's, not a
     * block by the gateway's code (the same measure as JsonBodyTest).
     */
    static long worstStallMs(String model) throws Exception {
        String body = largeChat(model);
        // warm-up and the client's own upload out of the way: one call first
        assertThat(h.postAuthed("/api/v1/chat/completions", body).statusCode()).isEqualTo(200);
        String id = h.vertx.deployVerticle(Probe::new, new DeploymentOptions().setInstances(8)).await();
        try {
            Thread.sleep(100);
            Probe.worstLateMs.set(0);
            long gcBefore = gcMillis();
            HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", body);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            long worst = Probe.worstLateMs.get();
            long gc = gcMillis() - gcBefore;
            System.out.printf("30 MB body to %s: worst event-loop delay %d ms; stop-the-world GC during the call %d ms%n",
                    model, worst, gc);
            return worst - gc;
        } finally {
            h.vertx.undeploy(id).await();
        }
    }

    @Test
    void nativePathKeepsTheLoopsResponsive() throws Exception {
        // before the copy and validation moved off the loop: 575 ms worst, 286 ms of it GC
        assertThat(worstStallMs("platform/vendorB-5.5")).isLessThan(150);
    }

    @Test
    void translatedPathKeepsTheLoopsResponsive() throws Exception {
        // vendor C: the canonical decode and the vendor encode (vendor A's encoder is quadratic in the number of
        // messages, a codec defect reported separately: a 30 MB conversation would take minutes there)
        assertThat(worstStallMs("vendorC-flash-3")).isLessThan(150);
    }
}
