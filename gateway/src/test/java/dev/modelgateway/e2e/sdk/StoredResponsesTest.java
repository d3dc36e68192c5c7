package dev.modelgateway.e2e.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.NotFoundException;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseItem;
import com.openai.models.responses.inputitems.InputItemListPage;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Stored responses as clients use them: the Vercel AI SDK's {@code item_reference} input items (recorded in
 * fixtures/clients/, @ai-sdk/openai 4.0.118 with {@code store} on), and openai-java's retrieve, delete and
 * inputItems list — answered from the gateway's store for the responses it made, relayed to vendor B for the
 * key that created a vendor B response, and "not found" for any other key.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class StoredResponsesTest {
    static GatewayHarness h;
    static OpenAIClient client;
    static AdminApi admin;

    static HttpResponse<String> post(JsonNode body, String key) {
        return h.post("/api/v1/responses", body.toString(), "authorization", "Bearer " + key);
    }

    /** The AI SDK's next turn: the earlier assistant message sent as a reference to its id. */
    static ObjectNode nextTurn(String model, String messageId) {
        ObjectNode body = (ObjectNode) Fixtures.json("clients/ai-sdk-openai-4.0.118-turn2.request.json");
        body.put("model", model);
        ((ObjectNode) body.withArray("input").get(1)).put("id", messageId);
        return body;
    }

    static JsonNode firstTurn(String model, String key) {
        ObjectNode body = (ObjectNode) Fixtures.json("clients/ai-sdk-openai-4.0.118-turn2.request.json");
        body.put("model", model);
        ArrayNode input = body.withArray("input");
        input.remove(2);
        input.remove(1);
        HttpResponse<String> r = post(body, key);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body());
    }

    static ReceivedRequest lastUpstream() {
        return h.sim.received().getLast();
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorA-sonnet-5", "vendorC-flash-3", "vendorD-plus-latest", "platform/vendorB-5.5"})
    void anItemReferenceToAGatewayResponseIsResolvedFromTheStore(String model) {
        JsonNode first = firstTurn("vendorC-flash-3", GatewayHarness.KEY);
        JsonNode message = first.path("output").get(first.path("output").size() - 1);
        String said = message.at("/content/0/text").asText();
        assertThat(said).startsWith("Hello from");

        HttpResponse<String> r = post(nextTurn(model, message.path("id").asText()), GatewayHarness.KEY);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(lastUpstream().body()).as("the vendor reads the referenced message").contains(said)
                .doesNotContain("item_reference");
    }

    @Test
    void aToolLoopStepReferencingTheReasoningItemReplaysItsSignature() {
        ObjectNode step1 = (ObjectNode) Fixtures.json("clients/ai-sdk-openai-4.0.118-tool-step1.request.json");
        step1.putObject("reasoning").put("effort", "low");
        HttpResponse<String> r1 = post(step1, GatewayHarness.KEY);
        assertThat(r1.statusCode()).as(r1.body()).isEqualTo(200);
        JsonNode output = Json.parseOrNull(r1.body()).path("output");
        JsonNode reasoning = output.get(0);
        JsonNode call = output.get(1);
        assertThat(reasoning.path("type").asText()).isEqualTo("reasoning");
        assertThat(call.path("type").asText()).isEqualTo("function_call");

        ObjectNode step2 = (ObjectNode) Fixtures.json("clients/ai-sdk-openai-4.0.118-tool-step2.request.json");
        step2.putObject("reasoning").put("effort", "low");
        ArrayNode input = step2.withArray("input");
        ((ObjectNode) input.get(1)).put("id", reasoning.path("id").asText());
        ((ObjectNode) input.get(2)).put("call_id", call.path("call_id").asText()).put("arguments", call.path("arguments").asText());
        ((ObjectNode) input.get(3)).put("call_id", call.path("call_id").asText());
        HttpResponse<String> r2 = post(step2, GatewayHarness.KEY);
        // vendor A (the simulator) verifies the replayed thinking block's signature
        assertThat(r2.statusCode()).as(r2.body()).isEqualTo(200);
        assertThat(lastUpstream().body()).contains("\"type\":\"thinking\"").contains("\"signature\"");
    }

    @Test
    void anotherKeysItemsAreNotFound() {
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"ref-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"ref-other\"}");
        JsonNode first = firstTurn("platform/vendorA-sonnet-5", owner.secret());
        String id = first.at("/output/0/id").asText();

        HttpResponse<String> r = post(nextTurn("platform/vendorA-sonnet-5", id), other.secret());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("input[1].id");
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).contains("not found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorA-sonnet-5", "platform/vendorB-5.5"})
    void theSdkRetrievesListsAndDeletesAStoredResponse(String model) {
        Response created = client.responses().create(ResponseCreateParams.builder().model(model).input("Hello store").build());

        Response again = client.responses().retrieve(created.id());
        assertThat(again.id()).isEqualTo(created.id());
        assertThat(again.output()).hasSize(created.output().size());
        assertThat(again.output().getLast().asMessage().content().getFirst().asOutputText().text())
                .isEqualTo(created.output().getLast().asMessage().content().getFirst().asOutputText().text());

        InputItemListPage page = client.responses().inputItems().list(created.id());
        List<ResponseItem> items = page.data();
        assertThat(items).hasSize(1);
        assertThat(items.getFirst().isResponseInputMessageItem()).as(items.toString()).isTrue();
        assertThat(items.getFirst().asResponseInputMessageItem().content().getFirst().asInputText().text()).isEqualTo("Hello store");
        assertThat(items.getFirst().asResponseInputMessageItem().id()).isNotBlank();

        AdminApi.CreatedKey other = admin.create("{\"name\":\"sdk-other-" + model.hashCode() + "\"}");
        OpenAIClient stranger = h.openai(other.secret());
        h.sim.clearReceived();
        assertThatThrownBy(() -> stranger.responses().retrieve(created.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> stranger.responses().delete(created.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> stranger.responses().inputItems().list(created.id())).isInstanceOf(NotFoundException.class);
        assertThat(h.sim.received()).as("another key's request never reaches the vendor").isEmpty();

        client.responses().delete(created.id());
        assertThatThrownBy(() -> client.responses().retrieve(created.id())).isInstanceOf(NotFoundException.class);
    }

    @Test
    void inputItemsArePagedNewestFirst() {
        HttpResponse<String> created = h.postAuthed("/api/v1/responses", "{\"model\":\"platform/vendorA-sonnet-5\",\"input\":["
                + "{\"role\":\"user\",\"content\":\"one\"},{\"role\":\"assistant\",\"content\":\"two\"},{\"role\":\"user\",\"content\":\"three\"}]}");
        String id = Json.parseOrNull(created.body()).path("id").asText();

        JsonNode page1 = Json.parseOrNull(h.getAuthed("/api/v1/responses/" + id + "/input_items?limit=2").body());
        assertThat(page1.path("object").asText()).isEqualTo("list");
        assertThat(page1.path("has_more").asBoolean()).isTrue();
        assertThat(page1.at("/data/0/content/0/text").asText()).isEqualTo("three");
        assertThat(page1.at("/data/1/content/0/type").asText()).isEqualTo("output_text");

        JsonNode page2 = Json.parseOrNull(h.getAuthed("/api/v1/responses/" + id + "/input_items?limit=2&after="
                + page1.path("last_id").asText()).body());
        assertThat(page2.path("has_more").asBoolean()).isFalse();
        assertThat(page2.at("/data/0/content/0/text").asText()).isEqualTo("one");
        assertThat(page2.path("first_id").asText()).isEqualTo(page2.path("last_id").asText());

        HttpResponse<String> bad = h.getAuthed("/api/v1/responses/" + id + "/input_items?limit=0");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(bad.body()).at("/error/param").asText()).isEqualTo("limit");
    }
}
