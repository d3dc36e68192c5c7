package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** Recorded vendor payloads under {@code -Dfixtures.dir}, by default the repository's {@code fixtures/}. */
public final class Fixtures {
    public static final ObjectMapper JSON = new ObjectMapper();

    private Fixtures() { }

    public static Path dir() {
        String d = System.getProperty("fixtures.dir");
        Path p = d != null ? Path.of(d) : Path.of("../fixtures"); // the repository's fixtures/, seen from gateway/
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("recorded fixtures not found at " + p.toAbsolutePath()
                    + "; run from the gateway module or pass -Dfixtures.dir=<repository>/fixtures");
        }
        return p;
    }

    public static String text(String rel) {
        try {
            return Files.readString(dir().resolve(rel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(String rel) {
        try {
            return JSON.readTree(text(rel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses an SSE file, fed in small pieces like a network stream would arrive. */
    public static List<SseEvent> sse(String rel) {
        try {
            byte[] bytes = Files.readAllBytes(dir().resolve(rel));
            List<SseEvent> out = new ArrayList<>();
            SseParser p = new SseParser(out::add);
            for (int i = 0; i < bytes.length; i += 97) {
                byte[] piece = Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + 97));
                p.feed(piece);
            }
            p.end();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fixture paths (relative) of one vendor with the given suffix, request files excluded. */
    public static List<String> list(String vendor, String suffix) {
        try (Stream<Path> s = Files.list(dir().resolve(vendor))) {
            return s.map(p -> vendor + "/" + p.getFileName())
                    .filter(n -> n.endsWith(suffix) && !n.endsWith(".request.json"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
