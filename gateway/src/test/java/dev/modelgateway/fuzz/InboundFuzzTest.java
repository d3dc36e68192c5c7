package dev.modelgateway.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import io.vertx.core.buffer.Buffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Property-based fuzzing of what callers control: the three inbound decoders (after the gateway's JSON
 * parsing, as the endpoints run them) and the multipart parser. Whatever the input — random JSON trees,
 * mutations of recorded valid requests, random bytes — the only outcomes allowed are a decoded request (or
 * multipart parts) and a {@link GatewayException} with a 4xx status; any other exception, or a case taking
 * longer than {@link #BOUND}, fails. Bounded (about 4 800 cases in all, fixed seeds) to run in
 * seconds in every build.
 */
class InboundFuzzTest {
    static final Duration BOUND = Duration.ofSeconds(2);
    static final List<String> SEEDS = new ArrayList<>();
    static final ExecutorService RUNNER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-case");
        t.setDaemon(true);
        return t;
    });

    static final String[] KEYS = {"model", "messages", "role", "content", "type", "text", "tools", "tool_choice",
            "tool_calls", "tool_call_id", "function", "name", "arguments", "parameters", "input_schema", "image_url",
            "url", "detail", "source", "media_type", "data", "max_tokens", "max_completion_tokens", "max_output_tokens",
            "temperature", "top_p", "top_k", "stop", "stop_sequences", "stream", "stream_options", "include_usage",
            "system", "instructions", "input", "id", "call_id", "output", "tool_use_id", "is_error", "thinking",
            "budget_tokens", "reasoning", "effort", "reasoning_effort", "response_format", "json_schema", "schema",
            "text", "format", "n", "seed", "user", "metadata", "cache_control", "signature", "input_audio", "file",
            "file_data", "filename", "image", "document", "previous_response_id", "store", "parallel_tool_calls",
            "platform_options", "fallback_models", "retries", "output_config", "service_tier", "modalities",
            "audio", "prediction", "logprobs", "top_logprobs", "logit_bias", "citations", "refusal", "annotations"};
    static final String[] WORDS = {"user", "assistant", "system", "developer", "tool", "function", "text", "image_url",
            "image", "input_text", "input_image", "output_text", "message", "function_call", "function_call_output",
            "tool_use", "tool_result", "thinking", "redacted_thinking", "auto", "none", "required", "any", "json_object",
            "json_schema", "base64", "url", "image/png", "data:image/png;base64,iVBORw0KGgo=", "data:,", "data:",
            "http://127.0.0.1/x.png", "low", "high", "minimal", "enabled", "disabled", "ephemeral", "", " ", "\u0000",
            "platform/vendorB-5.5", "platform/vendorA-sonnet-4.5", "{\"a\":1}", "{", "[]", "null", "-1", "1e999",
            "\uD800", "é", "\r\n"};

    @BeforeContainer
    static void loadSeeds() {
        for (String dir : new String[]{"openai-chat", "anthropic", "openai-responses"}) {
            try (Stream<Path> files = Files.list(Path.of("../fixtures", dir))) {
                files.filter(p -> p.toString().endsWith(".request.json")).sorted()
                        .forEach(p -> SEEDS.add(read(p)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        SEEDS.add("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,iVBORw0KGgo=\"}}]}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}}]}");
        SEEDS.add("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":\"x\"}],\"instructions\":\"be brief\"}");
        assertThat(SEEDS).hasSizeGreaterThan(20);
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- generators ----

    static Arbitrary<JsonNode> leaf() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return Arbitraries.oneOf(
                Arbitraries.of(WORDS).map(f::textNode),
                Arbitraries.strings().ofMaxLength(12).map(f::textNode),
                Arbitraries.integers().map(f::numberNode),
                Arbitraries.longs().map(f::numberNode),
                Arbitraries.doubles().map(f::numberNode),
                Arbitraries.of(0, 1, -1, 2, 1024, 128_000, Integer.MAX_VALUE).map(f::numberNode),
                Arbitraries.of(true, false).map(f::booleanNode),
                Arbitraries.just(f.nullNode()));
    }

    static Arbitrary<JsonNode> node(int depth) {
        if (depth <= 0) return leaf();
        return Arbitraries.frequencyOf(
                Tuple.of(4, leaf()),
                Tuple.of(2, Arbitraries.lazy(() -> array(depth - 1))),
                Tuple.of(3, Arbitraries.lazy(() -> object(depth - 1))));
    }

    static Arbitrary<JsonNode> array(int depth) {
        return node(depth).list().ofMaxSize(4).map(items -> {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            items.forEach(a::add);
            return a;
        });
    }

    static Arbitrary<String> key() {
        return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(KEYS)), Tuple.of(1, Arbitraries.strings().ofMaxLength(8)));
    }

    static Arbitrary<JsonNode> object(int depth) {
        return Arbitraries.entries(key(), node(depth)).list().ofMaxSize(6).map(entries -> {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            entries.forEach(e -> o.set(e.getKey(), e.getValue()));
            return o;
        });
    }

    @Provide
    Arbitrary<JsonNode> randomRequests() {
        return object(5);
    }

    /** A recorded valid request with 1–4 random edits: a value replaced, a field removed or a node wrapped. */
    @Provide
    Arbitrary<JsonNode> mutatedRequests() {
        return Arbitraries.integers().between(0, 1 << 20).flatMap(seedIndex ->
                node(3).list().ofMinSize(1).ofMaxSize(4).flatMap(values ->
                        Arbitraries.longs().map(rnd -> mutate(SEEDS.get(seedIndex % SEEDS.size()), values, new Random(rnd)))));
    }

    static JsonNode mutate(String seed, List<JsonNode> values, Random rnd) {
        JsonNode root = Json.parseOrNull(seed);
        for (JsonNode v : values) {
            List<JsonNode> containers = new ArrayList<>();
            collect(root, containers);
            JsonNode target = containers.get(rnd.nextInt(containers.size()));
            if (target instanceof ObjectNode o && !o.isEmpty()) {
                List<String> names = new ArrayList<>();
                o.fieldNames().forEachRemaining(names::add);
                String name = names.get(rnd.nextInt(names.size()));
                switch (rnd.nextInt(4)) {
                    case 0 -> o.remove(name);
                    case 1 -> o.set(name, JsonNodeFactory.instance.arrayNode().add(o.get(name)));
                    case 2 -> o.set(KEYS[rnd.nextInt(KEYS.length)], v.deepCopy());
                    default -> o.set(name, v.deepCopy());
                }
            } else if (target instanceof ArrayNode a && !a.isEmpty()) {
                int i = rnd.nextInt(a.size());
                switch (rnd.nextInt(3)) {
                    case 0 -> a.remove(i);
                    case 1 -> a.add(a.get(i).deepCopy());
                    default -> a.set(i, v.deepCopy());
                }
            }
        }
        return root;
    }

    static void collect(JsonNode n, List<JsonNode> out) {
        if (!n.isContainerNode()) return;
        out.add(n);
        for (JsonNode c : n) collect(c, out);
    }

    // ---- the contract ----

    static final List<Supplier<InboundCodec>> DECODERS = List.of(ChatInbound::new, MessagesInbound::new, ResponsesInbound::new);

    /** Runs a case under {@link #BOUND}: its value, or null after a 4xx GatewayException; anything else fails. */
    static <T> T withinBound(String what, java.util.concurrent.Callable<T> work) {
        Future<T> f = RUNNER.submit(work);
        try {
            return f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            return fail("took longer than " + BOUND + ": " + what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof GatewayException g && g.status() >= 400 && g.status() < 500) return null;
            throw new AssertionError("not a 4xx GatewayException for " + what, cause);
        }
    }

    /** What an endpoint does with a body: the gateway's JSON parsing, then a decoder. */
    static void decodeAll(byte[] body) {
        String what = abbreviate(new String(body, StandardCharsets.UTF_8));
        for (Supplier<InboundCodec> codec : DECODERS) {
            InboundCodec c = codec.get();
            CanonicalRequest r = withinBound(c.getClass().getSimpleName() + " " + what, () -> {
                ObjectNode parsed = Json.parseObject(Buffer.buffer(body));
                return c.decodeRequest(parsed);
            });
            if (r != null) assertThat(r).isNotNull();
        }
    }

    static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "…" : s;
    }

    @Property(tries = 1000, seed = "20261123")
    void randomJsonTreesDecodeOrAre4xx(@ForAll("randomRequests") JsonNode body) {
        decodeAll(Json.toBuffer(body).getBytes());
    }

    @Property(tries = 2000, seed = "7578")
    void mutatedValidRequestsDecodeOrAre4xx(@ForAll("mutatedRequests") JsonNode body) {
        decodeAll(Json.toBuffer(body).getBytes());
    }

    @Property(tries = 300, seed = "3986")
    void randomBytesAre4xx(@ForAll byte[] body) {
        decodeAll(body);
    }

    @Property(tries = 200, seed = "1951")
    void truncatedValidRequestsAre4xx(@ForAll("truncations") byte[] body) {
        decodeAll(body);
    }

    @Provide
    Arbitrary<byte[]> truncations() {
        return Arbitraries.integers().between(0, 1 << 20).flatMap(i -> {
            byte[] seed = SEEDS.get(i % SEEDS.size()).getBytes(StandardCharsets.UTF_8);
            return Arbitraries.integers().between(0, seed.length - 1).map(n -> java.util.Arrays.copyOf(seed, n));
        });
    }

    /** Bodies around Jackson's limits: nesting depth, number length, name length. */
    @Provide
    Arbitrary<byte[]> nearLimits() {
        Arbitrary<String> deep = Arbitraries.integers().between(Json.MAX_NESTING_DEPTH - 3, Json.MAX_NESTING_DEPTH * 4)
                .flatMap(d -> Arbitraries.of("[", "{\"a\":").map(open -> open.repeat(d) + "1"
                        + (open.equals("[") ? "]" : "}").repeat(d)));
        Arbitrary<String> number = Arbitraries.integers().between(Json.MAX_NUMBER_LENGTH - 3, Json.MAX_NUMBER_LENGTH * 3)
                .map(n -> "1".repeat(n));
        Arbitrary<String> decimal = Arbitraries.integers().between(Json.MAX_NUMBER_LENGTH - 3, Json.MAX_NUMBER_LENGTH * 3)
                .map(n -> "0." + "5".repeat(n) + "e-7");
        Arbitrary<String> name = Arbitraries.integers().between(Json.MAX_NAME_LENGTH - 3, Json.MAX_NAME_LENGTH + 100)
                .map(n -> "{\"" + "n".repeat(n) + "\":1}");
        return Arbitraries.oneOf(deep, number, decimal, name).flatMap(value -> Arbitraries.of(KEYS).map(k ->
                ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"input\":\"hi\",\"max_tokens\":8,\""
                        + k + "\":" + value + "}").getBytes(StandardCharsets.UTF_8)));
    }

    @Property(tries = 60, seed = "1000")
    void bodiesAtJacksonsLimitsDecodeOrAre4xx(@ForAll("nearLimits") byte[] body) {
        decodeAll(body);
    }

    // ---- multipart ----

    static final String BOUNDARY = "fz";

    @Provide
    Arbitrary<byte[]> forms() {
        Arbitrary<String> disposition = Arbitraries.oneOf(
                Arbitraries.of("name=\"model\"", "name=\"image\"; filename=\"a.png\"", "name=model", "name=\"\"",
                        "filename=\"x; name=model\"; name=\"n\"", "name=\"a\\\"b\"", "name=\"a", "name=", ";;;", "",
                        "name=\"model\" x=\"\"", "NAME=\"Model\"; FILENAME=\"é.png\""),
                Arbitraries.strings().ofMaxLength(20));
        Arbitrary<String> part = Arbitraries.oneOf(
                net.jqwik.api.Combinators.combine(disposition, Arbitraries.strings().ofMaxLength(16)).as((d, v) -> "--" + BOUNDARY
                        + "\r\nContent-Disposition: form-data; " + d + "\r\nContent-Type: text/plain\r\n\r\n" + v + "\r\n"),
                Arbitraries.of("--" + BOUNDARY + "\r\n", "--" + BOUNDARY + "--\r\n", "\r\n\r\n", "--", "\r\n--" + BOUNDARY),
                Arbitraries.strings().ofMaxLength(30));
        return part.list().ofMaxSize(6).map(ps -> String.join("", ps).getBytes(StandardCharsets.UTF_8));
    }

    @Property(tries = 1000, seed = "7578")
    void multipartParsesOrIs4xx(@ForAll("forms") byte[] form, @ForAll("contentTypes") String contentType) {
        List<MultipartForm.Part> parts = withinBound("multipart " + contentType + " " + abbreviate(new String(form, StandardCharsets.ISO_8859_1)),
                () -> MultipartForm.parse(contentType, Buffer.buffer(form)));
        if (parts != null) {
            // what the gateway would send on must parse back to the same names and filenames
            MultipartForm.Encoded again = MultipartForm.encode(parts);
            List<MultipartForm.Part> back = MultipartForm.parse(again.contentType(), again.body());
            assertThat(back).extracting(MultipartForm.Part::name).containsExactlyElementsOf(parts.stream().map(MultipartForm.Part::name).toList());
            assertThat(back).extracting(MultipartForm.Part::filename).containsExactlyElementsOf(parts.stream().map(MultipartForm.Part::filename).toList());
        }
    }

    @Property(tries = 200, seed = "1867")
    void multipartOnRandomBytesParsesOrIs4xx(@ForAll byte[] body, @ForAll("contentTypes") String contentType) {
        withinBound("multipart random bytes", () -> MultipartForm.parse(contentType, Buffer.buffer(body)));
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.oneOf(
                Arbitraries.of("multipart/form-data; boundary=" + BOUNDARY, "multipart/form-data; boundary=\"" + BOUNDARY + "\"",
                        "multipart/form-data; boundary=", "multipart/form-data", "multipart/form-data; boundary=\"",
                        "multipart/form-data;boundary=" + BOUNDARY + ";charset=utf-8", "text/plain"),
                Arbitraries.strings().ofMaxLength(10).map(s -> "multipart/form-data; boundary=" + s));
    }
}
