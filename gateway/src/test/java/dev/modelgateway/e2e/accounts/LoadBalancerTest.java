package dev.modelgateway.e2e.accounts;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.HaProxy;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.LockstepUpstream;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Two gateway instances sharing PostgreSQL and Redis behind a real HAProxy running the documented configuration
 * (deploy/haproxy/haproxy.cfg, docs/operations/load-balancer.md), called through it with the official SDKs: round-robin
 * puts every other request on each instance, and what they decide together agrees as one gateway's would: weights,
 * cooldowns, budgets and stored responses. Streams pass through it unbuffered.
 */
@E2e
@ExternalStores
class LoadBalancerTest {
    static Vertx vertx;
    static VendorSimulator sim;
    static SharedStores stores;
    static Path configA;
    static Path configB;
    static GatewayHarness a;
    static GatewayHarness b;
    static HaProxy lb;
    static LockstepUpstream lockstep;
    static final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        lockstep = LockstepUpstream.start(vertx);
        stores = new SharedStores();
        // the deployment "flaky" fails on instance A only (nothing listens where A sends it) and works from B
        configA = Files.writeString(Files.createTempFile("gateway-a", ".yaml"), config("http://127.0.0.1:" + FreePort.pick()));
        configB = Files.writeString(Files.createTempFile("gateway-b", ".yaml"), config(sim.baseUrl() + "/dashscope/compatible-mode/v1"));
        a = stores.gateway().simulator(sim).configFile(configA).start();
        b = stores.gateway().simulator(sim).configFile(configB).start();
        lb = HaProxy.start(a, b);
    }

    /** Both instances' configuration but for where the deployment {@code flaky} is. */
    static String config(String flakyUrl) {
        SimKeys keys = SimKeys.defaults();
        String openai = "{type: openai, base_url: " + sim.baseUrl() + "/openai/v1, api_key: " + keys.openai() + "}";
        String dashscope = "type: dashscope, api_key: " + keys.dashscope() + ", base_url: ";
        return GatewayHarness.simVendors(sim) + """
                providers:
                  blue: %s
                  green: %s
                  steady: {%s%s/dashscope/compatible-mode/v1}
                  flaky: {%s%s}
                  lockstep: {type: openai-compatible, base_url: %s}
                models:
                  team/weighted:
                    capabilities: [chat]
                    context_window: 8000
                    max_output_tokens: 1000
                    price: {input: 1, output: 1}
                    deployments: [{provider: blue, model: weighted-blue, weight: 3}, {provider: green, model: weighted-green, weight: 1}]
                  team/cooling:
                    capabilities: [chat]
                    context_window: 8000
                    max_output_tokens: 1000
                    price: {input: 1, output: 1}
                    deployments: [{provider: flaky, model: cooling-flaky}, {provider: steady, model: cooling-steady}]
                  team/metered:
                    capabilities: [chat]
                    context_window: 8000
                    max_output_tokens: 1000
                    price: {input: 100, output: 100}
                    deployments: [{provider: steady, model: metered}]
                  team/lockstep:
                    capabilities: [chat]
                    context_window: 8000
                    max_output_tokens: 1000
                    price: {input: 1, output: 1}
                    deployments: [{provider: lockstep, model: lockstep}]
                routing:
                  cooldown: {failures: 3, shared_failures: 2, seconds: 600, max_seconds: 600}
                """.formatted(openai, openai, dashscope, sim.baseUrl(), dashscope, flakyUrl, lockstep.baseUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : clients) c.close();
        if (lb != null) lb.close();
        if (b != null) b.close();
        if (a != null) a.close();
        if (stores != null) stores.close();
        lockstep.close();
        sim.close().await();
        vertx.close().await();
        Files.deleteIfExists(configA);
        Files.deleteIfExists(configB);
    }

    /** openai-java with HAProxy's address as its base URL, as an application behind the load balancer has it. */
    static OpenAIClient openai(String key) {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(lb.url() + "/api/v1").apiKey(key).maxRetries(0).build();
        clients.add(client::close);
        return client;
    }

    static AnthropicClient anthropic(String key) {
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(lb.url() + "/api").authToken(key).maxRetries(0).build();
        clients.add(client::close);
        return client;
    }

    /** A key made through the load balancer's admin API (either instance): {@code [id, secret]}. */
    static String[] createKey(String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(lb.url() + "/api/v1/admin/keys"))
                .header("authorization", "Bearer " + GatewayHarness.KEY).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        var key = Json.parseOrNull(r.body());
        return new String[]{key.path("id").asText(), key.path("key").asText()};
    }

    /** Requests an instance has answered on a route, from its own {@code /metrics} (not through HAProxy). */
    static long served(GatewayHarness h, String route) {
        return h.get("/metrics").body().lines()
                .filter(l -> l.startsWith("http_server_request_duration_seconds_count{") && l.contains("http_route=\"" + route + "\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    static ChatCompletion chat(OpenAIClient client, String model) {
        return client.chat().completions().create(ChatCompletionCreateParams.builder().model(model).addUserMessage("hi").build());
    }

    static String answer(ChatCompletion c) {
        return c.choices().getFirst().message().content().orElseThrow();
    }

    @Test
    void theDocumentedConfigurationIsValidAndIsTheOneTheDocsShow() throws Exception {
        String checked = HaProxy.check(HaProxy.environment(8080, 8081, 8082));
        assertThat(checked).startsWith("exit 0").contains("Configuration file is valid");
        String doc = Files.readString(Path.of("../docs/operations/load-balancer.md"));
        assertThat(doc).as("docs/operations/load-balancer.md shows deploy/haproxy/haproxy.cfg whole")
                .contains("```haproxy\n" + Files.readString(HaProxy.CONFIG) + "```");
    }

    @Test
    void roundRobinPutsEveryOtherRequestOnEachInstance() {
        OpenAIClient client = openai(GatewayHarness.KEY);
        long beforeA = served(a, "/api/v1/models");
        long beforeB = served(b, "/api/v1/models");
        for (int i = 0; i < 10; i++) assertThat(client.models().list().data()).isNotEmpty();
        Eventually.until("both instances counted their requests",
                () -> served(a, "/api/v1/models") - beforeA + served(b, "/api/v1/models") - beforeB == 10);
        assertThat(served(a, "/api/v1/models") - beforeA).isEqualTo(5);
        assertThat(served(b, "/api/v1/models") - beforeB).isEqualTo(5);
    }

    /**
     * 3:1 across both instances. Each instance spreads its own calls by smooth weighted round-robin, whose count for a
     * deployment is within one call of its exact share at any point; so over both, within two of 3/4 of the calls
     * (random weighted picks would give ±18 at three standard deviations for 200 calls).
     */
    @Test
    void aModelsWeightsHoldOverBothInstancesTogether() throws Exception {
        OpenAIClient client = openai(GatewayHarness.KEY);
        Map<String, AtomicInteger> byDeployment = new ConcurrentHashMap<>();
        long beforeA = served(a, "/api/v1/chat/completions");
        long beforeB = served(b, "/api/v1/chat/completions");
        int calls = 200;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                done.add(pool.submit(() -> {
                    String text = answer(chat(client, "team/weighted"));
                    String deployment = text.startsWith("Hello from weighted-blue.") ? "blue"
                            : text.startsWith("Hello from weighted-green.") ? "green" : text;
                    byDeployment.computeIfAbsent(deployment, d -> new AtomicInteger()).incrementAndGet();
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
        assertThat(byDeployment.keySet()).containsOnly("blue", "green");
        int blue = byDeployment.get("blue").get();
        assertThat(Math.abs(blue - calls * 3 / 4)).as("blue served %d of %d", blue, calls).isLessThanOrEqualTo(2);
        Eventually.until("both instances counted their calls", () -> served(a, "/api/v1/chat/completions") - beforeA
                + served(b, "/api/v1/chat/completions") - beforeB == calls);
        assertThat(served(a, "/api/v1/chat/completions") - beforeA).as("instance A's share").isEqualTo(calls / 2);
    }

    @Test
    void aDeploymentFailingOnOneInstanceIsCooledOnBoth() {
        OpenAIClient client = openai(GatewayHarness.KEY);
        // A's attempts on "flaky" fail and are retried on "steady"; B's on "flaky" succeed: callers see answers only
        Eventually.until("instance A has cooled the deployment", Duration.ofSeconds(60), () -> {
            assertThat(answer(chat(client, "team/cooling"))).startsWith("Hello from cooling-");
            return state(a, "flaky/cooling-flaky").equals("cooling");
        });
        // through Redis, B takes it out of rotation too, although every call B sent it succeeded
        Eventually.until("instance B has cooled it", Duration.ofSeconds(10), () -> state(b, "flaky/cooling-flaky").equals("cooling"));
        assertThat(state(b, "steady/cooling-steady")).isEqualTo("ready");

        sim.clearReceived();
        for (int i = 0; i < 10; i++) assertThat(answer(chat(client, "team/cooling"))).startsWith("Hello from cooling-steady.");
        assertThat(sim.received()).extracting(ReceivedRequest::body).hasSize(10).allMatch(body -> body.contains("\"cooling-steady\""));
    }

    /** A deployment's state in an instance's configuration in force: ready or cooling. */
    static String state(GatewayHarness h, String deployment) {
        var config = Json.parseOrNull(h.getAuthed("/api/v1/admin/config").body());
        for (var d : config.at("/models/team~1cooling/deployments")) {
            if (d.path("id").asText().equals(deployment)) return d.path("state").asText();
        }
        throw new AssertionError("no deployment " + deployment + " in " + config.at("/models/team~1cooling"));
    }

    /**
     * A budget of 10.5 calls' cost, calls alternating instances: the eleventh crosses it and completes (a budget is
     * checked, not predicted), the twelfth is refused, and so is every call after it on either instance.
     */
    @Test
    void aKeysBudgetHoldsAcrossInstances() throws Exception {
        String[] probe = createKey("{\"name\":\"probe\"}");
        chat(openai(probe[1]), "team/metered");
        long cost = LedgerRows.await(stores.databaseUrl(), probe[0], 1).getFirst().costE10();
        assertThat(cost).isPositive();

        BigDecimal budget = BigDecimal.valueOf(cost * 21 / 2, 10); // 10.5 calls, in dollars (cost is in 1e-10 dollars)
        String[] key = createKey("{\"name\":\"budgeted\",\"budget_usd\":\"" + budget.toPlainString() + "\"}");
        OpenAIClient client = openai(key[1]);
        for (int i = 0; i < 11; i++) chat(client, "team/metered");
        for (int i = 0; i < 4; i++) {
            RateLimitException refused = catchThrowableOfType(RateLimitException.class, () -> chat(client, "team/metered"));
            assertThat(refused).as("call %d after the budget", i + 12).isNotNull();
            assertThat(refused.code()).hasValue("insufficient_quota");
            assertThat(refused.headers().values("x-should-retry")).containsExactly("false");
        }
        // the messages protocol's SDK, on both instances too
        AnthropicClient anthropic = anthropic(key[1]);
        for (int i = 0; i < 2; i++) {
            var refused = catchThrowableOfType(com.anthropic.errors.RateLimitException.class, () -> anthropic.messages()
                    .create(MessageCreateParams.builder().model("team/metered").maxTokens(64).addUserMessage("hi").build()));
            assertThat(refused.getMessage()).contains("budget");
        }
        List<LedgerRows.Row> rows = LedgerRows.await(stores.databaseUrl(), key[0], 17);
        assertThat(rows).extracting(LedgerRows.Row::status).containsExactly(200, 200, 200, 200, 200, 200, 200, 200, 200, 200,
                200, 429, 429, 429, 429, 429, 429);
        assertThat(rows.stream().mapToLong(LedgerRows.Row::costE10).sum()).isEqualTo(11 * cost);
    }

    /**
     * A stored response made through one instance is retrieved and continued through the other (each step twice: one
     * request on each instance), and is another key's on neither: vendor B's own (its owner in Redis) and a translated
     * model's (kept in PostgreSQL).
     */
    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorB-5.5", "platform/vendorA-sonnet-4.5"})
    void storedResponsesAreSharedAndStayTheirKeys(String model) throws Exception {
        OpenAIClient owner = openai(createKey("{\"name\":\"owner\"}")[1]);
        OpenAIClient stranger = openai(createKey("{\"name\":\"stranger\"}")[1]);
        Response first = owner.responses().create(ResponseCreateParams.builder().model(model).input("remember 42").store(true).build());
        long retrievedA = served(a, "/api/v1/responses/:id");
        for (int i = 0; i < 2; i++) {
            Response again = owner.responses().retrieve(first.id());
            assertThat(again.id()).isEqualTo(first.id());
            assertThat(again.output().getLast().asMessage().content().getFirst().asOutputText().text())
                    .isEqualTo(first.output().getLast().asMessage().content().getFirst().asOutputText().text());
        }
        Eventually.until("instance A counted its retrieval", () -> served(a, "/api/v1/responses/:id") - retrievedA == 1);
        for (int i = 0; i < 2; i++) {
            Response next = owner.responses().create(ResponseCreateParams.builder().model(model).input("and now?")
                    .previousResponseId(first.id()).store(true).build());
            assertThat(next.output().getLast().asMessage().content().getFirst().asOutputText().text()).contains("and now?");
            // the vendor was given the conversation: vendor B its own id, vendor A the history the instance read back
            String sent = sim.received().getLast().body();
            assertThat(sent).contains(model.contains("vendorB") ? first.id() : "remember 42");
        }
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> stranger.responses().retrieve(first.id())).isInstanceOf(NotFoundException.class);
            assertThatThrownBy(() -> stranger.responses().create(ResponseCreateParams.builder().model(model).input("x")
                    .previousResponseId(first.id()).build()))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.param()).hasValue("previous_response_id"));
        }
    }

    @Test
    void theAnthropicSdkStreamsThroughIt() {
        MessageAccumulator message = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = anthropic(GatewayHarness.KEY).messages().createStreaming(
                MessageCreateParams.builder().model("platform/vendorA-sonnet-4.5").maxTokens(256).addUserMessage("hello there").build())) {
            s.stream().forEach(message::accumulate);
        }
        assertThat(message.message().content().getFirst().asText().text()).startsWith("Hello from").endsWith("hello there");
    }

    /**
     * Each event of a stream reaches the client through HAProxy as soon as the upstream writes it: the upstream writes the
     * next event only once the client has read the previous one, so nothing follows an event to push it out. Without
     * {@code option http-no-delay} HAProxy sends each with {@code MSG_MORE} and the kernel holds it until its 200 ms
     * timer: every event at least 200 ms late. With it, the fastest of ten is a few milliseconds; under 100 ms here,
     * whatever else loads the machine.
     */
    @Test
    void streamsPassThroughAsTheyAreWritten() throws Exception {
        OpenAIClient client = openai(GatewayHarness.KEY);
        BlockingQueue<Long> reads = new LinkedBlockingQueue<>();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            Future<?> streamed = reader.submit(() -> {
                try (var s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                        .model("team/lockstep").addUserMessage("hi").build())) {
                    s.stream().filter(c -> !c.choices().isEmpty() && c.choices().getFirst().delta().content().isPresent())
                            .forEach(c -> reads.add(System.nanoTime()));
                }
            });
            LockstepUpstream.Stream stream = lockstep.nextStream();
            List<Long> latenciesMs = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                long written = stream.write("event-" + i);
                Long read = reads.poll(10, TimeUnit.SECONDS);
                assertThat(read).as("event %d read by the client", i).isNotNull();
                latenciesMs.add((read - written) / 1_000_000);
            }
            stream.end();
            streamed.get(30, TimeUnit.SECONDS);
            assertThat(latenciesMs.stream().mapToLong(Long::longValue).min().orElseThrow())
                    .as("the fastest event's latency through HAProxy, ms, of %s", latenciesMs).isLessThan(100);
        } finally {
            reader.shutdownNow();
        }
    }
}
