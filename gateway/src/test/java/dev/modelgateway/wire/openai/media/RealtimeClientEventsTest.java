package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A client event that may buy a response is recognised however it is spelled, and nothing else is. */
class RealtimeClientEventsTest {
    private static boolean mayCreate(String message) {
        return RealtimeClientEvents.mayCreateResponse(true, Buffer.buffer(message));
    }

    @Test
    void responseCreateIsRecognisedHoweverSpelled() {
        assertThat(mayCreate("{\"type\":\"response.create\"}")).isTrue();
        assertThat(mayCreate("{\"event_id\":\"e1\",\"response\":{\"modalities\":[\"text\"]}, \"type\" : \"response.create\"}")).isTrue();
        assertThat(mayCreate("{\"type\":\"response\\u002ecreate\"}")).as("an escaped dot").isTrue();
        assertThat(mayCreate("{\"type\":\"session.update\",\"type\":\"response.create\"}")).as("a type given twice").isTrue();
        assertThat(RealtimeClientEvents.mayCreateResponse(false, Buffer.buffer("{\"type\":\"input_audio"))).as("a first fragment").isTrue();
    }

    @Test
    void otherEventsPass() {
        assertThat(mayCreate("{\"type\":\"input_audio_buffer.append\",\"audio\":\"" + "QUJD".repeat(1000) + "\"}")).isFalse();
        assertThat(mayCreate("{\"type\":\"conversation.item.create\",\"item\":{\"type\":\"response.create\"}}")).isFalse();
        assertThat(mayCreate("{\"type\":\"response.cancel\"}")).isFalse();
        assertThat(mayCreate("not json")).isFalse();
    }

    @Test
    void theRefusalIsTheVendorsErrorEventNamingTheClientEvent() {
        var error = JsonNodeFactory.instance.objectNode().put("type", "insufficient_quota").put("code", "insufficient_quota");
        var event = Json.parseOrNull(RealtimeClientEvents.refused(error, Buffer.buffer("{\"type\":\"response.create\",\"event_id\":\"evt_9\"}")));
        assertThat(event.path("type").asText()).isEqualTo("error");
        assertThat(event.path("event_id").asText()).isNotBlank();
        assertThat(event.at("/error/code").asText()).isEqualTo("insufficient_quota");
        assertThat(event.at("/error/event_id").asText()).isEqualTo("evt_9");
    }
}
