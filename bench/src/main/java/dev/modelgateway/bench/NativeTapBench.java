package dev.modelgateway.bench;

import dev.modelgateway.sse.SseParser;
import dev.modelgateway.upstream.RelayedFrames;
import dev.modelgateway.wire.CallerFrames;
import dev.modelgateway.wire.StreamTap;
import dev.modelgateway.wire.anthropic.AnthropicNativeTap;
import dev.modelgateway.wire.openai.chat.ChatNativeTap;
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

/**
 * The native (same-protocol) fast path, as the relay's StreamPump runs it: SseParser → StreamTap (observes
 * usage, relays the event's bytes) → RelayedFrames, which forwards the read's own bytes where the relayed
 * events lie in it as they would be written, and copies the rest into a buffer (RelayedFrames.copyRoom).
 * One operation = one recorded stream.
 * Scenario = {source stream}_{tap}; "qwen_openai" is a chat stream whose chunks all carry "usage":null.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class NativeTapBench {

    @Param({"openai_openai", "qwen_openai", "anthropic_anthropic"})
    public String scenario;

    private Buffer[] pieces;
    private boolean anthropic;

    @Setup(Level.Trial)
    public void setup() {
        String[] parts = scenario.split("_");
        anthropic = parts[1].equals("anthropic");
        pieces = Workloads.buffers(Workloads.split(Workloads.bytes(parts[0], 1), Workloads.MIN_PIECE, Workloads.MAX_PIECE));
        StreamTap tap = newTap();
        Buffer all = Buffer.buffer();
        SseParser p = new SseParser(e -> tap.onEvent(e, CallerFrames.into(all)));
        for (Buffer b : pieces) p.feed(b);
        p.end();
        if (!tap.complete()) throw new IllegalStateException(scenario + ": tap did not see the end of the stream");
    }

    private StreamTap newTap() {
        return anthropic ? new AnthropicNativeTap("trace-bench", id -> { }) : new ChatNativeTap(false);
    }

    @Benchmark
    public void relay(Blackhole bh) {
        StreamTap tap = newTap();
        RelayedFrames frames = new RelayedFrames(); // as upstream/StreamPump: one read in, the caller's frames out
        SseParser parser = new SseParser(e -> tap.onEvent(e, frames));
        for (Buffer b : pieces) {
            frames.read(b);
            parser.feed(b);
            Buffer out = frames.take();
            if (out != null) bh.consume(out);
        }
        frames.noRead();
        parser.end();
        bh.consume(frames.take());
        bh.consume(tap.usage());
    }
}
