package dev.modelgateway.e2e.clouds;

import com.anthropic.models.messages.MessageCountTokensParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.GoogleServiceAccounts;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operations without {@code platform_options} on cloud deployments (docs/clouds.md, "Token counting and
 * embeddings"), through the official SDKs against the simulator's doubles, which verify SigV4 and the Google access
 * tokens their own token endpoint issued: token counts by Bedrock's CountTokens (or here, when it cannot name the
 * model) and Vertex's count endpoints; embeddings on Bedrock's Titan (one input per request: a fan-out answered and
 * metered as one call) and Cohere, and on Vertex's text embedding models.
 */
@E2e
class CloudOperationsTest {
    static final String TITAN = "aws/titan-embed-text-v2";
    static final String COHERE = "aws/cohere-embed-v4";
    static final String TITAN_FAILING = "aws/titan-embed-text-v2-failing";
    static final String TITAN_SLOW = "aws/titan-embed-text-v2-slow";
    static final String VERTEX_EMBED = "gcp/text-embedding-005";
    static final int EMBEDDINGS_SECONDS = 3;
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        Path dir = Files.createTempDirectory("cloud-operations");
        var account = GoogleServiceAccounts.create(dir, "gateway", sim.baseUrl() + "/oauth2/token");
        sim.googleOAuth().trustServiceAccount(account.clientEmail(), account.publicKey());
        sim.acceptVertexTokens(sim.googleTokens());
        Path file = dir.resolve("gateway.yaml");
        // Bedrock's and Vertex's embedding models are the operator's to declare, with their price (docs/clouds.md)
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  aws:
                    type: bedrock
                    region: us-east-1
                    base_url: %1$s
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  gcp:
                    type: vertex
                    project: sim-project
                    location: us-east5
                    base_url: %1$s
                    google: {source: service_account, credentials_file: %2$s}
                models:
                  platform/vendorA-sonnet-4.5:
                    deployments:
                      - {provider: aws, model: "us.anthropic.claude-sonnet-4-5-v1:0"}
                  platform/vendorA-sonnet-4.8:
                    deployments:
                      - {provider: aws, model: "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/unnamed"}
                  platform/vendorA-opus-4.5:
                    deployments:
                      - provider: aws
                        model: "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/based"
                        capabilities: {base_model: "us.anthropic.claude-opus-4-5-v1:0"}
                  platform/vendorA-sonnet-4.7:
                    deployments:
                      - {provider: gcp, model: "claude-sonnet-4-7@20260101"}
                  vendorC-flash-3:
                    deployments:
                      - {provider: gcp, model: "gemini-3-flash"}
                  vendorC-embedding-001:
                    deployments:
                      - {provider: gcp, model: "gemini-embedding-001"}
                  %3$s:
                    vendor: openai
                    kind: embedding
                    capabilities: [embeddings]
                    price: {input: 0.02, output: 0}
                    deployments:
                      - {provider: aws, model: "amazon.titan-embed-text-v2:0"}
                  %4$s:
                    vendor: openai
                    kind: embedding
                    capabilities: [embeddings]
                    price: {input: 0.02, output: 0}
                    deployments:
                      - {provider: aws, model: "amazon.titan-embed-text-v2:0"}
                  %7$s:
                    vendor: openai
                    kind: embedding
                    capabilities: [embeddings]
                    price: {input: 0.02, output: 0}
                    deployments:
                      - {provider: aws, model: "amazon.titan-embed-text-v2:0"}
                  %5$s:
                    vendor: openai
                    kind: embedding
                    capabilities: [embeddings]
                    price: {input: 0.12, output: 0}
                    deployments:
                      - {provider: aws, model: "cohere.embed-v4:0"}
                  %6$s:
                    vendor: gemini
                    kind: embedding
                    capabilities: [embeddings]
                    price: {input: 0.025, output: 0}
                    deployments:
                      - {provider: gcp, model: "text-embedding-005"}
                """.formatted(sim.baseUrl(), account.file(), TITAN, TITAN_FAILING, COHERE, VERTEX_EMBED, TITAN_SLOW));
        // embeddings' deadline short enough for one test to pass it with requests that each answer well within it
        h = GatewayHarness.builder().simulator(sim).configFile(file)
                .timeouts(new OperationTimeouts(EMBEDDINGS_SECONDS, 30, 120, 300, 60, 300)).start();
    }

    @AfterAll
    static void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    @BeforeEach
    void clean() {
        sim.clearReceived();
    }

    private static long count(String model) {
        return h.anthropic().messages().countTokens(MessageCountTokensParams.builder().model(model).system("Be brief")
                .addUserMessage("Hello gateway, count me").build()).inputTokens();
    }

    private static List<ReceivedRequest> received(String vendor) {
        return sim.received().stream().filter(r -> r.vendor().equals(vendor)).toList();
    }

    private static void signedForTheSimKey(ReceivedRequest r) {
        assertThat(r.headers().get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDSIMBEDROCK/")
                .contains("/us-east-1/bedrock/aws4_request");
    }

    private static void bearerOfTheSimTokenEndpoint(ReceivedRequest r) {
        assertThat(sim.googleTokens().valid(r.headers().get("authorization").substring("Bearer ".length()))).isTrue();
    }

    private static CreateEmbeddingResponse embed(String model, List<String> inputs, Long dimensions) {
        EmbeddingCreateParams.Builder params = EmbeddingCreateParams.builder().model(model).inputOfArrayOfStrings(inputs);
        if (dimensions != null) params.dimensions(dimensions);
        return h.openai().embeddings().create(params.build());
    }

    @Test
    void bedrockCountTokensCountsOnTheFoundationModelTheDeploymentNames() {
        long tokens = count("platform/vendorA-sonnet-4.5");
        assertThat(tokens).isPositive();
        ReceivedRequest r = received("bedrock").getLast();
        // a geo profile's foundation model: CountTokens refuses profile ids
        assertThat(r.path()).isEqualTo("/model/anthropic.claude-sonnet-4-5-v1%3A0/count-tokens");
        signedForTheSimKey(r);
        JsonNode invoke = Json.parseOrNull(new String(Base64.getDecoder().decode(
                Json.parseOrNull(r.body()).at("/input/invokeModel/body").asText())));
        assertThat(invoke.path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
        assertThat(invoke.path("system").asText()).isEqualTo("Be brief");

        // an application profile counts on the base model it declares
        assertThat(count("platform/vendorA-opus-4.5")).isPositive();
        assertThat(received("bedrock").getLast().path()).isEqualTo("/model/anthropic.claude-opus-4-5-v1%3A0/count-tokens");
        assertThat(h.ledger("platform/vendorA-opus-4.5", 1)).singleElement()
                .satisfies(row -> assertThat(((Number) row.get("status")).intValue()).isEqualTo(200));
    }

    @Test
    void aBedrockModelCountTokensCannotNameIsCountedHere() {
        long here = count("platform/vendorA-sonnet-4.8");
        assertThat(sim.received()).isEmpty();
        // the gateway's own count is the same whatever the model: a vendor B model's, which is always counted here
        assertThat(here).isEqualTo(count("platform/vendorB-5.5"));
        assertThat(h.ledger("platform/vendorA-sonnet-4.8", 1)).singleElement()
                .satisfies(row -> assertThat(((Number) row.get("input_tokens")).longValue()).isZero());
    }

    @Test
    void vertexCountsVendorAAndGeminiWithItsOwnEndpoints() {
        assertThat(count("platform/vendorA-sonnet-4.7")).isPositive();
        ReceivedRequest a = received("vertex").getLast();
        assertThat(a.path()).isEqualTo("/v1/projects/sim-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict");
        assertThat(Json.parseOrNull(a.body()).path("model").asText()).isEqualTo("claude-sonnet-4-7@20260101");
        bearerOfTheSimTokenEndpoint(a);

        assertThat(count("vendorC-flash-3")).isPositive();
        ReceivedRequest c = received("vertex").getLast();
        assertThat(c.path()).isEqualTo("/v1/projects/sim-project/locations/us-east5/publishers/google/models/gemini-3-flash:countTokens");
        assertThat(Json.parseOrNull(c.body()).at("/systemInstruction/parts/0/text").asText()).isEqualTo("Be brief");
        bearerOfTheSimTokenEndpoint(c);
    }

    @Test
    void titanEmbedsEachInputInItsOwnSignedRequestAnsweredAndMeteredAsOneCall() {
        List<String> inputs = List.of("first text", "second, longer text to embed", "third", "fourth", "fifth one", "sixth");
        CreateEmbeddingResponse all = embed(TITAN, inputs, 256L);
        assertThat(all.data()).hasSize(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            assertThat(all.data().get(i).index()).isEqualTo(i);
            assertThat(all.data().get(i).embedding()).hasSize(256);
        }
        assertThat(all.model()).isEqualTo(TITAN);
        List<ReceivedRequest> calls = received("bedrock");
        assertThat(calls).hasSize(inputs.size()).allSatisfy(r -> {
            assertThat(r.path()).isEqualTo("/model/amazon.titan-embed-text-v2%3A0/invoke");
            signedForTheSimKey(r);
        });
        assertThat(calls).extracting(r -> Json.parseOrNull(r.body()).path("inputText").asText()).containsExactlyInAnyOrderElementsOf(inputs);
        assertThat(calls).extracting(r -> Json.parseOrNull(r.body()).path("dimensions").asInt()).containsOnly(256);
        // one ledger row, with the tokens of every request
        List<Map<String, Object>> rows = h.ledger(TITAN, 1);
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(((Number) row.get("input_tokens")).longValue()).isEqualTo(all.usage().promptTokens());
            assertThat(((Number) row.get("status")).intValue()).isEqualTo(200);
        });

        // the sum of what Titan counted for each input alone, and the same vectors
        long alone = 0;
        for (int i = 0; i < inputs.size(); i++) {
            CreateEmbeddingResponse one = embed(TITAN, List.of(inputs.get(i)), 256L);
            alone += one.usage().promptTokens();
            assertThat(one.data().getFirst().embedding()).isEqualTo(all.data().get(i).embedding());
        }
        assertThat(all.usage().promptTokens()).isEqualTo(alone).isPositive();
    }

    @Test
    void aFailedTitanRequestIsTheCallsErrorAndNoMoreAreSent() {
        sim.queueFault("bedrock", "status=429");
        HttpResponse<String> r = h.postAuthed("/api/v1/embeddings", """
                {"model":"%s","input":["a","b","c","d","e","f","g","h","i","j"]}""".formatted(TITAN_FAILING));
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(Json.parseOrNull(r.body()).at("/error/code").asText()).isEqualTo("ThrottlingException");
        // the last request, which would have answered the caller, is never sent
        assertThat(received("bedrock")).hasSizeLessThan(10);
        assertThat(h.ledger(TITAN_FAILING, 1)).singleElement()
                .satisfies(row -> assertThat(((Number) row.get("status")).intValue()).isEqualTo(429));
    }

    @Test
    void theDeadlineBoundsTheWholeFanOut() {
        // 12 inputs: 11 fetched four at a time (three rounds), then the last; each answers in 0.9 s, well within the
        // 3 s deadline, but all of them take about 3.6 s
        String slow = "[[sim:delay_ms=900]]";
        StringBuilder inputs = new StringBuilder();
        for (int i = 0; i < 12; i++) inputs.append(i == 0 ? "" : ",").append("\"").append(slow).append(" input ").append(i).append("\"");
        HttpResponse<String> r = h.postAuthed("/api/v1/embeddings", "{\"model\":\"" + TITAN_SLOW + "\",\"input\":[" + inputs + "]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(504);
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText())
                .contains("did not answer within the call's deadline (" + EMBEDDINGS_SECONDS * 1000 + " ms)");
    }

    @Test
    void cohereEmbedsEveryInputInOneRequest() {
        CreateEmbeddingResponse e = embed(COHERE, List.of("first text", "second text"), 512L);
        assertThat(e.data()).hasSize(2);
        assertThat(e.data().get(1).embedding()).hasSize(512);
        assertThat(e.usage().promptTokens()).isPositive();
        ReceivedRequest r = received("bedrock").getLast();
        assertThat(received("bedrock")).hasSize(1);
        assertThat(r.path()).isEqualTo("/model/cohere.embed-v4%3A0/invoke");
        signedForTheSimKey(r);
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("texts")).hasSize(2);
        assertThat(body.path("output_dimension").asInt()).isEqualTo(512);
    }

    @Test
    void vertexTextEmbeddingsBatchInputsAndGeminiEmbeddingTakesOneARequest() {
        CreateEmbeddingResponse batched = embed(VERTEX_EMBED, List.of("first text", "second text", "third"), 64L);
        assertThat(batched.data()).hasSize(3);
        assertThat(batched.data().get(2).embedding()).hasSize(64);
        assertThat(batched.usage().promptTokens()).isPositive();
        assertThat(received("vertex")).singleElement().satisfies(r -> {
            assertThat(r.path()).isEqualTo("/v1/projects/sim-project/locations/us-east5/publishers/google/models/text-embedding-005:predict");
            assertThat(Json.parseOrNull(r.body()).path("instances")).hasSize(3);
            assertThat(Json.parseOrNull(r.body()).at("/parameters/outputDimensionality").asInt()).isEqualTo(64);
            bearerOfTheSimTokenEndpoint(r);
        });
        assertThat(h.ledger(VERTEX_EMBED, 1)).singleElement()
                .satisfies(row -> assertThat(((Number) row.get("input_tokens")).longValue()).isEqualTo(batched.usage().promptTokens()));

        sim.clearReceived();
        CreateEmbeddingResponse fanned = embed("vendorC-embedding-001", List.of("first text", "second text"), 8L);
        assertThat(fanned.data()).extracting(d -> d.index()).containsExactly(0L, 1L);
        assertThat(received("vertex")).hasSize(2).allSatisfy(r -> {
            assertThat(r.path()).endsWith("/publishers/google/models/gemini-embedding-001:predict");
            assertThat(Json.parseOrNull(r.body()).path("instances")).hasSize(1);
            bearerOfTheSimTokenEndpoint(r);
        });
    }

    @Test
    void tokenIdsAreRefusedByTheCloudsNamingTheInput() {
        HttpResponse<String> r = h.postAuthed("/api/v1/embeddings", "{\"model\":\"" + COHERE + "\",\"input\":[1,2,3]}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("input");
        assertThat(sim.received()).isEmpty();
    }
}
