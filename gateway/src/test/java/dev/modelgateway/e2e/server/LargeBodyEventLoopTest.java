package dev.modelgateway.e2e.server;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.DeploymentOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.awt.image.BufferedImage;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 30 MB JSON body, after its parse (on a worker thread, endpoint/JsonBody): validation, the copies and the
 * encoding sent upstream must not stall the gateway's event loops either, on any endpoint that takes a large
 * body (docs/security.md); nor a 25 MB multipart upload (endpoint/FormBody), nor an image and its upscaled answer
 * as base64 (images/ImageScalesEndpoint, upstream/Relay). A 5 ms timer on every event loop measures how late it fires while the gateway
 * handles the body, and how long the loop ran other code meanwhile.
 */
@E2e
@Isolated
class LargeBodyEventLoopTest {
    /** What an event loop may spend on a request between two ticks: reading the upload and writing it upstream. */
    static final long BUSY_LIMIT_MS = 50;
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
        return "{\"model\":\"" + model + "\",\"messages\":" + conversation(330_000) + "}";
    }

    /** About 30 MB of Responses input items. */
    static String largeResponses(String model) {
        return "{\"model\":\"" + model + "\",\"input\":" + conversation(430_000) + "}";
    }

    /** About 30 MB of messages to count. */
    static String largeCount(String model) {
        return "{\"model\":\"" + model + "\",\"messages\":" + conversation(430_000) + "}";
    }

    private static String conversation(int messages) {
        StringBuilder json = new StringBuilder(32 * 1024 * 1024).append('[');
        for (int i = 0; i < messages; i++) {
            if (i > 0) json.append(',');
            json.append("{\"role\":\"").append(i % 2 == 0 ? "user" : "assistant").append("\",\"content\":\"message number ")
                    .append(i).append(" of a long conversation\"}");
        }
        return json.append(",{\"role\":\"user\",\"content\":\"Hello\"}]").toString();
    }

    /**
     * About 30 MB of embeddings input: the most texts allowed (2048), ~15 KB each. One dimension back: the
     * vendor's answer is read on the event loop (upstream/Relay), and 2048 long vectors would be its own stall.
     */
    static String largeEmbeddings(String model) {
        StringBuilder json = new StringBuilder(32 * 1024 * 1024).append("{\"model\":\"").append(model)
                .append("\",\"dimensions\":1,\"input\":[");
        for (int i = 0; i < 2048; i++) {
            if (i > 0) json.append(',');
            json.append('"');
            for (int w = 0; w < 750; w++) json.append("text ").append(i).append(" word ").append(w).append(' ');
            json.append('"');
        }
        return json.append("]}").toString();
    }

    /** G1's "Concurrent GC" bean counts its remark and cleanup pauses; ZGC's and Shenandoah's "Cycles" are not pauses. */
    private static final List<GarbageCollectorMXBean> PAUSING_GCS = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .filter(gc -> !gc.getName().contains("Cycles")).toList();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Stop-the-world GC time so far. */
    private static long gcMillis() {
        return PAUSING_GCS.stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }

    /**
     * A 5 ms timer on one event loop: how late it fires, and how much CPU time the loop spent on other work
     * between two of its ticks. The delay also counts the JVM's stop-the-world GC pauses and the time the loop
     * waited for a core (the test machine is shared); the CPU time counts neither, only code the loop ran while
     * the timer waited: the stall the gateway itself causes.
     */
    static final class Probe extends VerticleBase {
        static final AtomicLong worstLateMs = new AtomicLong();
        static final AtomicLong worstBusyMs = new AtomicLong();
        /** Ticks of all probes: the measure starts once each has ticked after its start-up. */
        static final AtomicLong ticks = new AtomicLong();
        private long last;
        private long lastCpu;

        @Override
        public Future<?> start() {
            last = System.nanoTime();
            lastCpu = THREADS.getCurrentThreadCpuTime();
            vertx.setPeriodic(5, id -> {
                long now = System.nanoTime();
                long cpu = THREADS.getCurrentThreadCpuTime();
                worstLateMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - last) - 5, Math::max);
                worstBusyMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(cpu - lastCpu), Math::max);
                last = now;
                lastCpu = cpu;
                ticks.incrementAndGet();
            });
            return Future.succeededFuture();
        }
    }

    /**
     * While the gateway answers {@code body}: the longest an event loop ran other work between two ticks of a
     * 5 ms timer, in CPU time (the worst delay, with GC pauses and waits for a core, is printed beside it).
     */
    static long worstStallMs(String path, String body) throws Exception {
        return worstStallMs(path, body.substring(0, body.indexOf("\",")), body.length(), () -> h.postAuthed(path, body));
    }

    static long worstStallMs(String path, String label, int bytes, Callable<HttpResponse<String>> call) throws Exception {
        String id = h.vertx.deployVerticle(Probe::new, new DeploymentOptions().setInstances(8)).await();
        try {
            long ticked = Probe.ticks.get();
            Eventually.until("the probes ticking", () -> Probe.ticks.get() - ticked >= 16);
            Probe.worstLateMs.set(0);
            Probe.worstBusyMs.set(0);
            long gcBefore = gcMillis();
            HttpResponse<String> r = call.call();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            long gc = gcMillis() - gcBefore;
            System.out.printf("%d MB to %s (%s): an event loop ran other work for up to %d ms of CPU; worst timer delay %d ms;"
                            + " stop-the-world GC during the call %d ms%n", bytes / 1_000_000, path, label,
                    Probe.worstBusyMs.get(), Probe.worstLateMs.get(), gc);
            return Probe.worstBusyMs.get();
        } finally {
            h.vertx.undeploy(id).await();
        }
    }

    /**
     * The best of up to three measured calls stays under {@link #BUSY_LIMIT_MS}. Work the gateway does on a loop
     * in proportion to the body (what this test is for: 125 ms to 3 s per call before the fixes) shows in every
     * call; a JIT deoptimisation on a loaded CI machine shows in one. The upload's own growing array (Vert.x's
     * BodyHandler) showed in every call only on a loaded machine: 56 ms in CI, 90–108 ms here with both cores
     * busy, the kernel zeroing its fresh pages (http/BodyChunks).
     */
    static void assertLoopsStayResponsive(String path, String body) throws Exception {
        assertLoopsStayResponsive(path, body.substring(0, body.indexOf("\",")), body.length(), () -> h.postAuthed(path, body));
    }

    static void assertLoopsStayResponsive(String path, String label, int bytes, Callable<HttpResponse<String>> call)
            throws Exception {
        // warm-up and the client's own upload out of the way: one call first
        HttpResponse<String> warm = call.call();
        assertThat(warm.statusCode()).as(warm.body()).isEqualTo(200);
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3 && best >= BUSY_LIMIT_MS; attempt++) {
            best = Math.min(best, worstStallMs(path, label, bytes, call));
        }
        assertThat(best).as("CPU ms an event loop ran other work between two 5 ms ticks, best of up to 3 calls")
                .isLessThan(BUSY_LIMIT_MS);
    }

    // The figures before each fix, on the shared 2-core test machine, are in docs/security.md.

    @Test
    void nativePathKeepsTheLoopsResponsive() throws Exception {
        assertLoopsStayResponsive("/api/v1/chat/completions", largeChat("platform/vendorB-5.5"));
    }

    @Test
    void translatedPathKeepsTheLoopsResponsive() throws Exception {
        // vendor C: the canonical decode and the vendor encode
        assertLoopsStayResponsive("/api/v1/chat/completions", largeChat("vendorC-flash-3"));
    }

    @Test
    void responsesNativePathKeepsTheLoopsResponsive() throws Exception {
        // vendor B: the checks and the history walk
        assertLoopsStayResponsive("/api/v1/responses", largeResponses("platform/vendorB-5.5"));
    }

    @Test
    void responsesTranslatedPathKeepsTheLoopsResponsive() throws Exception {
        // vendor A: the checks, the history, the input kept with the stored response, the encode for vendor A
        assertLoopsStayResponsive("/api/v1/responses", largeResponses("platform/vendorA-sonnet-5"));
    }

    @Test
    void embeddingsKeepTheLoopsResponsive() throws Exception {
        // vendor B: the input checked and serialized
        assertLoopsStayResponsive("/api/v1/embeddings", largeEmbeddings("platform/text-embedding-3-small"));
    }

    @Test
    void embeddingsCountedLocallyKeepTheLoopsResponsive() throws Exception {
        // vendor C: its answer has no usage, so every text is tokenized by the gateway
        assertLoopsStayResponsive("/api/v1/embeddings", largeEmbeddings("vendorC-embedding-001"));
    }

    @Test
    void tokenCountingKeepsTheLoopsResponsive() throws Exception {
        // vendor A counts (the messages checked and serialized for it); others are counted here (decoded, tokenized)
        assertLoopsStayResponsive("/api/v1/messages/count_tokens", largeCount("platform/vendorA-sonnet-5"));
        assertLoopsStayResponsive("/api/v1/messages/count_tokens", largeCount("vendorC-flash-3"));
    }

    /** A 24 MB audio file in vendor B's transcription form: the multipart parse and the form re-encoded upstream. */
    @Test
    void transcriptionUploadKeepsTheLoopsResponsive() throws Exception {
        String boundary = "large-body-boundary-31415";
        byte[] audio = new byte[24 * 1024 * 1024];
        new Random(7).nextBytes(audio);
        ByteArrayOutputStream form = new ByteArrayOutputStream(audio.length + 1024);
        form.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n"
                + "platform/vendorB-transcribe\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\";"
                + " filename=\"long.wav\"\r\nContent-Type: audio/wav\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        form.writeBytes(audio);
        form.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        byte[] body = form.toByteArray();
        assertLoopsStayResponsive("/api/v1/audio/transcriptions", "multipart, vendor B", body.length,
                () -> h.postMultipartAuthed("/api/v1/audio/transcriptions", boundary, body));
    }

    /**
     * A 1600 × 1200 image of noise (about 6 MB of PNG, 8 MB as base64 in JSON) upscaled twice by vendor C: the
     * request's base64 decoded and re-encoded for Imagen, and Imagen's answer (about 20 MB of base64) reshaped.
     */
    @Test
    void imageUpscaleKeepsTheLoopsResponsive() throws Exception {
        BufferedImage noise = new BufferedImage(1600, 1200, BufferedImage.TYPE_INT_RGB);
        Random random = new Random(11);
        for (int y = 0; y < noise.getHeight(); y++) {
            for (int x = 0; x < noise.getWidth(); x++) noise.setRGB(x, y, random.nextInt());
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(noise, "png", png);
        String body = "{\"model\":\"platform/vendorC-imagen-upscale\",\"scale\":2,\"image\":\""
                + Base64.getEncoder().encodeToString(png.toByteArray()) + "\"}";
        assertLoopsStayResponsive("/api/v1/images/scales", "JSON, vendor C", body.length(),
                () -> h.postAuthed("/api/v1/images/scales", body));
    }
}
