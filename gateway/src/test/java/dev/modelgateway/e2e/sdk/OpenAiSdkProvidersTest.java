package dev.modelgateway.e2e.sdk;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Models added by configuration on an Azure OpenAI provider and on an OpenAI-compatible server (vLLM-like), through
 * the official openai-java SDK: chat as JSON and as a stream, tools both ways, embeddings.
 */
@E2e
class OpenAiSdkProvidersTest {
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;
    static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        String base = sim.baseUrl();
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  azure:
                    type: azure-openai
                    base_url: %s/azure
                    api_version: 2024-10-21
                    api_key: %s
                  vllm:
                    type: openai-compatible
                    base_url: %s/compat/v1
                    headers: {x-team: research}
                models:
                  azure/gpt-4o:
                    capabilities: [chat, tools]
                    context_window: 128000
                    max_output_tokens: 16384
                    price: {input: 2.50, output: 10.00}
                    deployments: [{provider: azure, model: gpt-4o-prod}]
                  local/llama-3.3:
                    capabilities: [chat, tools]
                    context_window: 131072
                    max_output_tokens: 8192
                    price: unknown
                    deployments: [{provider: vllm, model: meta-llama/Llama-3.3-70B-Instruct}]
                  azure/embed-small:
                    kind: embedding
                    capabilities: [embeddings]
                    context_window: 8191
                    price: {input: 0.02, output: 0}
                    deployments: [{provider: azure, model: embed-small-prod}]
                  local/bge-m3:
                    kind: embedding
                    capabilities: [embeddings]
                    context_window: 8192
                    price: unknown
                    deployments: [{provider: vllm, model: BAAI/bge-m3}]
                """.formatted(base, SimKeys.AZURE, base));
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        client = h.openai();
    }

    @AfterAll
    static void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    static ReceivedRequest last() {
        List<ReceivedRequest> log = sim.received();
        return log.get(log.size() - 1);
    }

    @ParameterizedTest
    @CsvSource({"azure/gpt-4o, gpt-4o-prod, /azure/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21",
            "local/llama-3.3, meta-llama/Llama-3.3-70B-Instruct, /compat/v1/chat/completions"})
    void chatJsonAndStream(String model, String upstream, String path) {
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(model)
                .addUserMessage("Hello provider").build());
        assertThat(c.choices().get(0).message().content()).hasValue("Hello from " + upstream + ". You said: Hello provider");
        assertThat(c.usage().orElseThrow().completionTokens()).isPositive();
        assertThat(last().path()).isEqualTo(path);

        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model(model).addUserMessage("Hello stream").streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build())
                .build())) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.chatCompletion().choices().get(0).message().content()).hasValue("Hello from " + upstream + ". You said: Hello stream");
        assertThat(acc.chatCompletion().usage().orElseThrow().totalTokens()).isPositive();
        assertThat(last().path()).isEqualTo(path);
        if (model.startsWith("azure/")) assertThat(last().headers()).containsEntry("api-key", SimKeys.AZURE);
        else assertThat(last().headers()).containsEntry("x-team", "research");
    }

    @ParameterizedTest
    @CsvSource({"azure/gpt-4o", "local/llama-3.3"})
    void toolsJsonAndStream(String model) {
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(model)
                .addUserMessage("Weather?").addTool(Samples.WEATHER).build());
        var call = c.choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction();
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(Json.parseOrNull(call.function().arguments()).path("city").asText()).isEqualTo("sim");

        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model(model).addUserMessage("Weather?").addTool(Samples.WEATHER).build())) {
            s.stream().forEach(acc::accumulate);
        }
        var streamed = acc.chatCompletion().choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction();
        assertThat(streamed.function().name()).isEqualTo("get_weather");
    }

    @ParameterizedTest
    @CsvSource({"azure/embed-small, /azure/openai/deployments/embed-small-prod/embeddings?api-version=2024-10-21",
            "local/bge-m3, /compat/v1/embeddings"})
    void embeddings(String model, String path) {
        for (var format : List.of(EmbeddingCreateParams.EncodingFormat.FLOAT, EmbeddingCreateParams.EncodingFormat.BASE64)) {
            CreateEmbeddingResponse r = client.embeddings().create(EmbeddingCreateParams.builder().model(model)
                    .inputOfArrayOfStrings(List.of("first", "second")).dimensions(8).encodingFormat(format).build());
            assertThat(r.data()).hasSize(2);
            assertThat(r.data().get(0).embedding()).hasSize(8);
            assertThat(r.model()).isEqualTo(model);
            assertThat(r.usage().promptTokens()).isPositive();
            assertThat(last().path()).isEqualTo(path);
        }
    }
}
