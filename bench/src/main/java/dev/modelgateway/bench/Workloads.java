package dev.modelgateway.bench;

import dev.modelgateway.sse.SseParser;
import dev.modelgateway.upstream.RelayedFrames;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The recorded vendor streams the benchmarks replay, and how they are cut into network-sized pieces.
 * Fixtures come from {@code -Dfixtures.dir} (default: the repository's {@code fixtures/}, from the repo root or bench/).
 */
public final class Workloads {
    /** Smallest and largest network read, bytes: what a TCP socket typically hands the event loop. */
    public static final int MIN_PIECE = 1024;
    public static final int MAX_PIECE = 4096;
    /** Fixed seed: every fork and every run cuts the stream at the same places. */
    private static final long SEED = 0x5EED_2026L;

    private Workloads() { }

    /** Fixture file per source stream name (the part before '_' in a scenario name). */
    public static String fixtureFile(String stream) {
        return switch (stream) {
            case "anthropic" -> "anthropic/stream-web-search-with-thinking.sse";
            case "anthropicBig" -> "anthropic/stream-pause-turn-web-search.sse";
            case "openai" -> "openai-chat/stream-json-object-long.sse";
            case "qwen" -> "qwen/stream-reasoning-content.sse";
            case "gemini" -> "gemini/stream-thinking-thought-signature.sse";
            default -> throw new IllegalArgumentException("unknown stream " + stream);
        };
    }

    public static Path fixturesDir() {
        String prop = System.getProperty("fixtures.dir");
        List<Path> candidates = new ArrayList<>();
        if (prop != null) candidates.add(Path.of(prop));
        candidates.add(Path.of("fixtures"));     // run from the repo root
        candidates.add(Path.of("../fixtures"));  // run from bench/
        for (Path p : candidates) if (Files.isDirectory(p)) return p;
        throw new IllegalStateException("fixtures not found; pass -Dfixtures.dir=<repository>/fixtures (tried "
                + candidates + ")");
    }

    /** The stream's bytes, concatenated {@code repeat} times (only meaningful for the parser alone). */
    public static byte[] bytes(String stream, int repeat) {
        try {
            byte[] one = Files.readAllBytes(fixturesDir().resolve(fixtureFile(stream)));
            byte[] all = new byte[one.length * repeat];
            for (int r = 0; r < repeat; r++) System.arraycopy(one, 0, all, r * one.length, one.length);
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Number of SSE events (dispatched frames) in the bytes: the "chunks" of per-chunk numbers. */
    public static int events(byte[] bytes) {
        int[] n = {0};
        SseParser p = new SseParser(e -> n[0]++);
        p.feed(bytes);
        p.end();
        return n[0];
    }

    /** Cuts the bytes into pieces of {@code min..max} bytes (uniform, fixed seed), copied into their own arrays. */
    public static byte[][] split(byte[] bytes, int min, int max) {
        SplittableRandom rnd = new SplittableRandom(SEED);
        List<byte[]> pieces = new ArrayList<>();
        int pos = 0;
        while (pos < bytes.length) {
            int len = Math.min(bytes.length - pos, min == max ? min : rnd.nextInt(min, max + 1));
            byte[] piece = new byte[len];
            System.arraycopy(bytes, pos, piece, 0, len);
            pieces.add(piece);
            pos += len;
        }
        return pieces.toArray(new byte[0][]);
    }

    /** The pieces as Vert.x buffers, as the HTTP client delivers them (read-only during the benchmark). */
    public static Buffer[] buffers(byte[][] pieces) {
        Buffer[] out = new Buffer[pieces.length];
        for (int i = 0; i < pieces.length; i++) out[i] = Buffer.buffer(pieces[i]);
        return out;
    }

    /** The caller's output buffer for one network read, sized from it as upstream/RelayedFrames sizes a copy. */
    public static Buffer output(Buffer piece) {
        return Buffer.buffer(RelayedFrames.copyRoom(piece.length()));
    }
}
