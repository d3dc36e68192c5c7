package dev.modelgateway.e2e.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.Reasoning;
import com.openai.models.ReasoningEffort;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.WebSearchTool;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Responses API through openai-java: natively to vendor B, translated to vendors A, C and D. */
@ExtendWith(PerClassGateway.class)
@E2e
class OpenAiSdkResponsesTest {
    static GatewayHarness h;
    static OpenAIClient client;

    static ResponseCreateParams.Builder hello(String model) {
        return ResponseCreateParams.builder().model(model).input("Hello gateway");
    }

    static String text(Response r) {
        StringBuilder sb = new StringBuilder();
        for (ResponseOutputItem item : r.output()) {
            if (item.isMessage()) item.asMessage().content().forEach(c -> c.outputText().ifPresent(t -> sb.append(t.text())));
        }
        return sb.toString();
    }

    static Response streamed(ResponseCreateParams params) {
        ResponseAccumulator acc = ResponseAccumulator.create();
        try (StreamResponse<ResponseStreamEvent> s = client.responses().createStreaming(params)) {
            s.stream().forEach(acc::accumulate);
        }
        return acc.response();
    }

    static JsonNode lastUpstream(String pathSuffix) {
        List<ReceivedRequest> log = h.sim.received();
        for (int i = log.size() - 1; i >= 0; i--) {
            if (log.get(i).path().contains(pathSuffix)) return Json.parseOrNull(log.get(i).body());
        }
        throw new AssertionError("no upstream request to " + pathSuffix + " in " + log);
    }

    static FunctionTool weatherTool() {
        return FunctionTool.builder().name("get_weather").description("Weather for a city").strict(false)
                .parameters(FunctionTool.Parameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                        .build())
                .build();
    }

    @Test
    void nativeVendorBJsonIsRelayedAndMetered() {
        h.sim.clearReceived();
        Response r = client.responses().create(hello("platform/vendorB-5.5").build());
        assertThat(text(r)).isEqualTo("Hello from vendorB-5.5. You said: Hello gateway");
        assertThat(r.id()).startsWith("resp_sim_");
        assertThat(r.usage().orElseThrow().outputTokens()).isPositive();
        assertThat(lastUpstream("/openai/v1/responses").path("model").asText()).isEqualTo("vendorB-5.5");
        var rows = h.ledger("platform/vendorB-5.5", 1);
        assertThat(rows).isNotEmpty();
        assertThat(((Number) rows.getLast().get("output_tokens")).longValue()).isPositive();
    }

    @Test
    void nativeVendorBStreamAccumulatesAndUsageComesFromCompletedEvent() {
        Response r = streamed(hello("platform/vendorB-5.4").reasoning(Reasoning.builder().effort(ReasoningEffort.XHIGH).build()).build());
        assertThat(text(r)).isEqualTo("Hello from vendorB-5.4. You said: Hello gateway");
        assertThat(lastUpstream("/openai/v1/responses").at("/reasoning/effort").asText()).isEqualTo("xhigh");
        var rows = h.ledger("platform/vendorB-5.4", 1);
        assertThat(((Number) rows.getLast().get("output_tokens")).longValue()).isEqualTo(r.usage().orElseThrow().outputTokens());
    }

    @Test
    void translatedToVendorsACAndD() {
        for (String model : List.of("platform/vendorA-sonnet-4.5", "vendorC-flash-3", "vendorD-plus-latest")) {
            Response r = client.responses().create(hello(model).instructions("Be brief").build());
            assertThat(text(r)).as(model).contains("You said: Hello gateway");
            assertThat(r.id()).startsWith("resp_gw_");
            assertThat(r._model().toString()).contains(model);
            assertThat(r.usage().orElseThrow().totalTokens()).isPositive();
            assertThat(h.ledger(model, 1)).as(model).isNotEmpty();
        }
        assertThat(lastUpstream("/dashscope/").at("/messages/0/role").asText()).isEqualTo("system");
    }

    @Test
    void translatedStreamAccumulates() {
        for (String model : List.of("platform/vendorA-sonnet-4.5", "vendorC-flash-3")) {
            Response r = streamed(hello(model).build());
            assertThat(text(r)).as(model).contains("You said: Hello gateway");
            assertThat(r.id()).startsWith("resp_gw_");
        }
    }

    @Test
    void translatedToolCallThenResultChainedByPreviousResponseId() {
        Response first = client.responses().create(hello("vendorC-flash-3").addTool(weatherTool()).build());
        ResponseFunctionToolCall call = first.output().stream().filter(ResponseOutputItem::isFunctionCall)
                .map(ResponseOutputItem::asFunctionCall).findFirst().orElseThrow();
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(Json.parseOrNull(call.arguments()).path("city").asText()).isEqualTo("sim");

        h.sim.clearReceived();
        Response second = client.responses().create(ResponseCreateParams.builder().model("vendorC-flash-3")
                .previousResponseId(first.id()).addTool(weatherTool())
                .inputOfResponse(List.of(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                        .callId(call.callId()).output("sunny, 21 C").build())))
                .build());
        assertThat(text(second)).contains("sunny, 21 C");
        JsonNode upstream = lastUpstream(":generateContent");
        assertThat(upstream.toString()).contains("Hello gateway").contains("get_weather").contains("sunny, 21 C");
    }

    @Test
    void streamedTranslatedToolCall() {
        Response r = streamed(hello("platform/vendorA-sonnet-4.5").addTool(weatherTool()).build());
        ResponseFunctionToolCall call = r.output().stream().filter(ResponseOutputItem::isFunctionCall)
                .map(ResponseOutputItem::asFunctionCall).findFirst().orElseThrow();
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(Json.parseOrNull(call.arguments()).path("city").asText()).isEqualTo("sim");
    }

    @Test
    void unknownPreviousResponseIdOnTranslatedModelIs400() {
        assertThatThrownBy(() -> client.responses().create(hello("vendorC-flash-3").previousResponseId("resp_gw_nope").build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("previous_response_id");
    }

    @Test
    void seriesSixRefusesSamplingAndLogprobs() {
        assertThatThrownBy(() -> client.responses().create(hello("platform/vendorB-6-sol").temperature(0.2).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("temperature");
        assertThatThrownBy(() -> client.responses().create(hello("platform/vendorB-6-luna").topP(0.5).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("top_p");
        var r = h.postAuthed("/api/v1/responses", "{\"model\":\"platform/vendorB-6-astra\",\"input\":\"hi\",\"top_logprobs\":3}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("top_logprobs");
        assertThat(text(client.responses().create(hello("platform/vendorB-5.5").temperature(0.2).build()))).contains("Hello from");
    }

    @Test
    void webSearchOnlyForAstra() {
        WebSearchTool search = WebSearchTool.builder().type(WebSearchTool.Type.WEB_SEARCH).build();
        assertThatThrownBy(() -> client.responses().create(hello("platform/vendorB-5.5").addTool(search).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("function tools").hasMessageContaining("MCP");
        assertThatThrownBy(() -> client.responses().create(hello("vendorC-flash-3").addTool(search).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("astra");
        h.sim.clearReceived();
        client.responses().create(hello("platform/vendorB-6-astra").addTool(search).build());
        assertThat(lastUpstream("/openai/v1/responses").at("/tools/0/type").asText()).isEqualTo("web_search");
    }

    @Test
    void badInputNamesTheField() {
        var r = h.postAuthed("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("input");
        r = h.postAuthed("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\",\"input\":\"x\",\"reasoning\":{\"effort\":\"extreme\"}}");
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("reasoning.effort");
        r = h.postAuthed("/api/v1/responses", "{\"model\":\"vendorC-flash-3\",\"input\":[{\"type\":\"message\",\"role\":\"pilot\",\"content\":\"x\"}]}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("input[0].role");
        r = h.postAuthed("/api/v1/responses", "{\"model\":\"platform/text-embedding-3-small\",\"input\":\"x\"}");
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("model");
    }
}
