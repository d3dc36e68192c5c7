package dev.modelgateway.bench;

import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * SseParser alone (the native fast path parses every upstream byte). One operation = one big stream — the
 * recorded fixture concatenated {@value #REPEAT} times — fed as Vert.x Buffers of realistic network sizes:
 * "1024-4096" = uniform random 1–4 KB reads (fixed seed), "1024"/"4096" = fixed size. Events go to a Blackhole.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SseParserBench {
    public static final int REPEAT = 8;

    /** anthropic: named events with padded data; qwen: data-only; gemini: CRLF line ends. */
    @Param({"anthropic", "qwen", "gemini"})
    public String stream;

    @Param({"1024-4096", "1024", "4096"})
    public String piece;

    private Buffer[] pieces;

    @Setup(Level.Trial)
    public void setup() {
        String[] range = piece.split("-");
        int min = Integer.parseInt(range[0]);
        int max = Integer.parseInt(range[range.length - 1]);
        byte[] bytes = Workloads.bytes(stream, REPEAT);
        pieces = Workloads.buffers(Workloads.split(bytes, min, max));
        int[] n = {0};
        SseParser p = new SseParser(e -> n[0]++);
        for (Buffer b : pieces) p.feed(b);
        p.end();
        if (n[0] != Workloads.events(bytes)) throw new IllegalStateException("split changes the event count");
    }

    @Benchmark
    public void parse(Blackhole bh) {
        Consumer<SseEvent> sink = bh::consume;
        SseParser parser = new SseParser(sink);
        for (Buffer b : pieces) parser.feed(b);
        parser.end();
    }
}
