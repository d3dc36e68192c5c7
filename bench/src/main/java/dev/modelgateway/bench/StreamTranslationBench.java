package dev.modelgateway.bench;

import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseParser;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.StreamEncoder;
import dev.modelgateway.wire.VendorCodec;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.gemini.GeminiCodec;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.openai.chat.OpenAiChatCodec;
import dev.modelgateway.wire.qwen.QwenCodec;
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
 * One operation = one whole recorded vendor stream translated for a client of the other protocol, bytes in →
 * bytes out, in network-sized pieces (1–4 KB): SseParser → vendor StreamDecoder → canonical events →
 * inbound StreamEncoder → a fresh output Buffer per network read (what the relay writes to the socket).
 * Parser, decoder and encoder are per-stream objects and are created inside the operation, as the gateway
 * does once per request. Scenario = {source stream}_{client protocol}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StreamTranslationBench {

    @Param({"anthropic_chat", "openai_messages", "qwen_messages", "gemini_chat", "qwen_chat"})
    public String scenario;

    private Buffer[] pieces;
    private VendorCodec vendor;
    private InboundCodec inbound;
    private CanonicalRequest request;
    private String publicModel;

    @Setup(Level.Trial)
    public void setup() {
        String[] parts = scenario.split("_");
        vendor = switch (parts[0]) {
            case "anthropic" -> new AnthropicCodec();
            case "openai" -> new OpenAiChatCodec();
            case "qwen" -> new QwenCodec();
            case "gemini" -> new GeminiCodec();
            default -> throw new IllegalArgumentException(parts[0]);
        };
        publicModel = "platform/bench-model";
        if (parts[1].equals("chat")) {
            inbound = new ChatInbound();
            // include_usage: the client gets the trailing usage chunk (the more expensive, common SDK setting).
            request = inbound.decodeRequest(Json.parseObject(Buffer.buffer("""
                    {"model":"platform/bench-model","stream":true,"stream_options":{"include_usage":true},
                     "messages":[{"role":"user","content":"hi"}]}""")));
        } else {
            inbound = new MessagesInbound();
            request = inbound.decodeRequest(Json.parseObject(Buffer.buffer("""
                    {"model":"platform/bench-model","stream":true,"max_tokens":1024,
                     "messages":[{"role":"user","content":"hi"}]}""")));
        }
        pieces = Workloads.buffers(Workloads.split(Workloads.bytes(parts[0], 1), Workloads.MIN_PIECE, Workloads.MAX_PIECE));
        check();
    }

    /** Fails the trial if the translation does not produce a complete stream: a benchmark of an error path is worthless. */
    private void check() {
        Buffer all = Buffer.buffer();
        Pipeline p = new Pipeline(vendor.newStreamDecoder(), inbound.newStreamEncoder(publicModel, request));
        for (Buffer piece : pieces) {
            p.out = all;
            p.parser.feed(piece);
        }
        p.end();
        String s = all.toString();
        String terminal = inbound instanceof ChatInbound ? "data: [DONE]" : "event: message_stop";
        if (!s.contains(terminal)) throw new IllegalStateException(scenario + ": no " + terminal + " in output:\n" + s);
    }

    /** The per-request translation state, wired the way the relay wires it. */
    static final class Pipeline implements Consumer<StreamEvent> {
        final StreamDecoder decoder;
        final StreamEncoder encoder;
        final SseParser parser;
        Buffer out;

        Pipeline(StreamDecoder decoder, StreamEncoder encoder) {
            this.decoder = decoder;
            this.encoder = encoder;
            this.parser = new SseParser(e -> decoder.decode(e, this));
        }

        @Override
        public void accept(StreamEvent e) {
            encoder.encode(e, out);
        }

        void end() {
            parser.end();
            decoder.end(this);
        }
    }

    @Benchmark
    public void translate(Blackhole bh) {
        Pipeline p = new Pipeline(vendor.newStreamDecoder(), inbound.newStreamEncoder(publicModel, request));
        for (Buffer piece : pieces) {
            if (p.out == null) p.out = Workloads.output(piece);
            p.parser.feed(piece);
            if (p.out.length() > 0) { // StreamPump writes it and starts another with the next read
                bh.consume(p.out);
                p.out = null;
            }
        }
        if (p.out == null) p.out = Buffer.buffer(256);
        p.end();
        bh.consume(p.out);
    }

    /** Parser and vendor decoder only: canonical events go to the Blackhole. translate − decode ≈ the encoder's cost. */
    @Benchmark
    public void decodeOnly(Blackhole bh) {
        StreamDecoder decoder = vendor.newStreamDecoder();
        Consumer<StreamEvent> sink = bh::consume;
        SseParser parser = new SseParser(e -> decoder.decode(e, sink));
        for (Buffer piece : pieces) parser.feed(piece);
        parser.end();
        decoder.end(sink);
    }
}
