package dev.modelgateway;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Settings;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.store.SqliteLibrary;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code train}, run by {@code ./gw} to build the start-up cache (docs/configuration.md, "Start-up"): the
 * JVM runs with {@code -XX:AOTCacheOutput}, records the classes this run loads and links (JEP 483, 514; not the
 * methods' profiles of JEP 515: {@code -XX:-AOTRecordTraining}, docs/performance.md), and writes the cache when it exits. So the run does what a real start and its first
 * requests do: {@code serve}'s configuration loading and start-up on a new SQLite file (the migrations run), then
 * every caller protocol, JSON and SSE, native and translated, with the master key and with a stored key, in front
 * of the built-in simulator on loopback. It exits 0 only if every answer was the expected one.
 */
final class Training {
    static final String MASTER_KEY = "pk-training-master-key";
    /** Each request (generous: a machine busy with other work can starve a start for seconds); the launcher bounds the whole run. */
    static final long REQUEST_SECONDS = 30;
    /** A few rounds, so that the first requests' methods are profiled beyond their first call. */
    static final int ROUNDS = 3;

    /** One request and what its answer must be. */
    record Probe(String name, HttpMethod method, String path, String body, int status, String marker) {
        static Probe post(String name, String path, String body, String marker) {
            return new Probe(name, HttpMethod.POST, path, body, 200, marker);
        }
    }

    private Training() {
    }

    /**
     * {@code train [--export-sqlite-library DIR]}: with the option, a successful run also writes sqlite-jdbc's
     * native library into DIR ({@link SqliteLibrary}).
     *
     * @return the exit status: 0 when every request was answered as expected
     */
    static int run(String[] args, PrintStream out) throws Exception {
        Path libraryDir = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--export-sqlite-library") && i + 1 < args.length) libraryDir = Path.of(args[++i]);
            else {
                out.println("train: unknown option '" + args[i] + "'");
                return 2;
            }
        }
        int status = exercise(out);
        if (status == 0 && libraryDir != null) {
            Path library = SqliteLibrary.export(libraryDir);
            out.println("train: " + (library == null ? "no sqlite-jdbc library for this platform to export" : "exported " + library));
        }
        return status;
    }

    /** @return 0 when every request was answered as expected */
    static int exercise(PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("gateway-training");
        Vertx vertx = Vertx.vertx(Main.vertxOptions());
        try {
            VendorSimulator sim = VendorSimulator.start(vertx, 0).await();
            GatewayConfig config = new ConfigLoader(environment(sim.baseUrl(), SimKeys.defaults(), dir)::get).load(null);
            Gateway gateway = Gateway.start(vertx, config, Main.eventLoops()).await();
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(gateway.port()));
            List<String> failures = new ArrayList<>();
            int sent = 1;
            try {
                String storedKey = createKey(client, failures);
                for (int round = 0; round < ROUNDS; round++) {
                    for (Probe p : probes()) {
                        sent++;
                        send(client, p, MASTER_KEY, failures);
                    }
                    if (storedKey != null) {
                        sent++;
                        send(client, Probe.post("chat, stored key", "/api/v1/chat/completions", chat("platform/vendorB-5.5", false),
                                "\"chat.completion\""), storedKey, failures);
                    }
                }
            } finally {
                client.close().await();
                gateway.stop().await();
            }
            failures.forEach(f -> out.println("train: " + f));
            out.println("train: " + (sent - failures.size()) + " of " + sent + " requests answered as expected");
            return failures.isEmpty() ? 0 : 1;
        } finally {
            vertx.close().await();
            deleteRecursively(dir);
        }
    }

    /** {@code serve}'s settings, as the environment would give them: every vendor on the simulator, a new database. */
    static Map<String, String> environment(String simulator, SimKeys keys, Path dir) {
        return Map.ofEntries(
                Map.entry(Settings.SERVER_HOST.env(), "127.0.0.1"),
                Map.entry(Settings.SERVER_PORT.env(), "0"),
                Map.entry(Settings.SERVER_MASTER_KEY.env(), MASTER_KEY),
                // the database and the ledger's journal both in the run's own directory, deleted after it
                Map.entry(Settings.SERVER_DATA_DIR.env(), dir.toString()),
                Map.entry("ANTHROPIC_BASE_URL", simulator + "/anthropic"),
                Map.entry("ANTHROPIC_API_KEY", keys.anthropic()),
                Map.entry("OPENAI_BASE_URL", simulator + "/openai/v1"),
                Map.entry("OPENAI_API_KEY", keys.openai()),
                Map.entry("GEMINI_BASE_URL", simulator + "/gemini"),
                Map.entry("GEMINI_API_KEY", keys.gemini()),
                Map.entry("DASHSCOPE_BASE_URL", simulator + "/dashscope/compatible-mode/v1"),
                Map.entry("DASHSCOPE_API_KEY", keys.dashscope()));
    }

    /** Vendor A and B natively, vendors C and D and the other of A and B translated, on each caller protocol. */
    static List<Probe> probes() {
        List<Probe> probes = new ArrayList<>();
        probes.add(new Probe("health", HttpMethod.GET, "/health", null, 200, "\"ok\""));
        probes.add(new Probe("models", HttpMethod.GET, "/api/v1/models", null, 200, "platform/vendorB-5.5"));
        for (boolean stream : new boolean[]{false, true}) {
            String kind = stream ? " SSE" : " JSON";
            for (String model : List.of("platform/vendorB-5.5", "platform/vendorA-sonnet-5", "vendorC-flash-3", "vendorD-plus-latest")) {
                probes.add(Probe.post("chat " + model + kind, "/api/v1/chat/completions", chat(model, stream),
                        stream ? "data: [DONE]" : "\"chat.completion\""));
            }
            for (String model : List.of("platform/vendorA-sonnet-5", "platform/vendorB-5.5")) {
                probes.add(Probe.post("messages " + model + kind, "/api/v1/messages", messages(model, stream),
                        stream ? "event: message_stop" : "\"stop_reason\""));
                probes.add(Probe.post("responses " + model + kind, "/api/v1/responses", responses(model, stream),
                        stream ? "response.completed" : "\"completed\""));
            }
        }
        probes.add(Probe.post("count tokens", "/api/v1/messages/count_tokens",
                Json.MAPPER.createObjectNode().put("model", "platform/vendorA-sonnet-5").set("messages", userMessage()).toString(),
                "input_tokens"));
        probes.add(Probe.post("embeddings", "/api/v1/embeddings",
                Json.MAPPER.createObjectNode().put("model", "platform/text-embedding-3-small").put("input", "Hello").toString(),
                "\"embedding\""));
        return probes;
    }

    private static String chat(String model, boolean stream) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", model).put("stream", stream);
        body.set("messages", userMessage());
        return body.toString();
    }

    private static String messages(String model, boolean stream) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", model).put("max_tokens", 256).put("stream", stream);
        body.set("messages", userMessage());
        return body.toString();
    }

    private static String responses(String model, boolean stream) {
        return Json.MAPPER.createObjectNode().put("model", model).put("input", "Hello").put("stream", stream).toString();
    }

    private static ArrayNode userMessage() {
        ArrayNode messages = Json.MAPPER.createArrayNode();
        messages.addObject().put("role", "user").put("content", "Hello");
        return messages;
    }

    /** A stored key through the admin API, so that key lookup, admission and the ledger run too; null if refused. */
    private static String createKey(HttpClient client, List<String> failures) {
        Answer a = send(client, new Probe("create key", HttpMethod.POST, "/api/v1/admin/keys", "{\"name\":\"training\"}", 201, "\"key\""),
                MASTER_KEY, failures);
        return a == null ? null : Json.parseOrNull(a.body()).path("key").asText(null);
    }

    private record Answer(int status, String body) {
    }

    /** @return the answer, or null (and a line in {@code failures}) if it was not the expected one */
    private static Answer send(HttpClient client, Probe p, String key, List<String> failures) {
        RequestOptions options = new RequestOptions().setMethod(p.method()).setURI(p.path())
                .putHeader("authorization", "Bearer " + key)
                .putHeader("content-type", "application/json")
                .putHeader("anthropic-version", "2023-06-01");
        Answer a;
        try {
            // the body is asked for in send's own continuation, as the Vert.x manual's examples do: asked for by a
            // later step of the outer chain, a short answer once ended first (a /health 200 read with no body)
            a = client.request(options)
                    .compose(req -> (p.body() == null ? req.send() : req.send(p.body()))
                            .compose(resp -> resp.body().map(b -> new Answer(resp.statusCode(), b.toString()))))
                    .timeout(REQUEST_SECONDS, TimeUnit.SECONDS)
                    .await();
        } catch (RuntimeException e) {
            failures.add(p.name() + ": " + e);
            return null;
        }
        if (a.status() != p.status() || !a.body().contains(p.marker())) {
            failures.add(p.name() + ": " + a.status() + " " + a.body().substring(0, Math.min(300, a.body().length())));
            return null;
        }
        return a;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
