package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import software.amazon.eventstream.Message;
import software.amazon.eventstream.MessageDecoder;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BedrockConverseTest extends SimTestBase {
    private static final String TOOLS = "\"toolConfig\":{\"tools\":[{\"toolSpec\":{\"name\":\"weather\",\"inputSchema\":{\"json\":"
            + "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}}}]}";

    /** One decoded frame: its headers of interest and its JSON payload. */
    record Frame(String messageType, String type, JsonNode payload) {
    }

    @Test
    void converseAnswersTextWithTheModelFromThePath() {
        HttpResponse<String> r = converse("amazon.nova-pro-v1%3A0", "{\"messages\":" + user("hello") + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode j = json(r.body());
        assertThat(j.path("output").path("message").path("content").get(0).path("text").asText())
                .isEqualTo("Hello from amazon.nova-pro-v1:0. You said: hello");
        assertThat(j.path("stopReason").asText()).isEqualTo("end_turn");
        JsonNode u = j.path("usage");
        assertThat(u.path("totalTokens").asInt()).isEqualTo(u.path("inputTokens").asInt() + u.path("outputTokens").asInt());
        assertThat(u.has("cacheReadInputTokens")).isFalse();
    }

    @Test
    void cachePointsWriteThenRead() {
        String body = "{\"system\":[{\"text\":\"" + "Long instructions. ".repeat(50) + "\"},{\"cachePoint\":{\"type\":\"default\"}}],"
                + "\"messages\":" + user("hi") + "}";
        JsonNode first = json(converse("anthropic.claude-haiku-4-5-v1%3A0", body).body()).path("usage");
        assertThat(first.path("cacheWriteInputTokens").asInt()).isPositive();
        assertThat(first.path("cacheReadInputTokens").asInt()).isZero();
        assertThat(first.path("cacheDetails").get(0).path("ttl").asText()).isEqualTo("5m");
        JsonNode second = json(converse("anthropic.claude-haiku-4-5-v1%3A0", body).body()).path("usage");
        assertThat(second.path("cacheReadInputTokens").asInt()).isEqualTo(first.path("cacheWriteInputTokens").asInt());
        assertThat(second.path("cacheWriteInputTokens").asInt()).isZero();
    }

    @Test
    void cachePointsAreRefusedForAModelWithoutCaching() {
        String arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/nocache1";
        sim.bedrockWithoutCaching(arn);
        String encoded = arn.replace(":", "%3A").replace("/", "%2F");
        HttpResponse<String> refused = converse(encoded, "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"hi\"},"
                + "{\"cachePoint\":{\"type\":\"default\"}}]}]}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.headers().firstValue("x-amzn-errortype")).hasValueSatisfying(t -> assertThat(t).startsWith("ValidationException"));
        assertThat(json(refused.body()).path("message").asText()).contains("prompt caching");
        assertThat(converse(encoded, "{\"messages\":" + user("hi") + "}").statusCode()).isEqualTo(200);
    }

    @Test
    void turnsMustAlternateAndToolBlocksNeedAToolConfig() {
        HttpResponse<String> twoUsers = converse("m", "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"a\"}]},"
                + "{\"role\":\"user\",\"content\":[{\"text\":\"b\"}]}]}");
        assertThat(twoUsers.statusCode()).isEqualTo(400);
        assertThat(json(twoUsers.body()).path("message").asText()).contains("must alternate");
        HttpResponse<String> noConfig = converse("m", "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"a\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"weather\",\"input\":{}}}]},"
                + "{\"role\":\"user\",\"content\":[{\"toolResult\":{\"toolUseId\":\"t1\",\"content\":[{\"text\":\"sun\"}]}}]}]}");
        assertThat(json(noConfig.body()).path("message").asText()).contains("toolConfig field must be defined");
        HttpResponse<String> blank = converse("m", "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"a\"},{\"text\":\" \"}]}]}");
        assertThat(json(blank.body()).path("message").asText()).contains("messages.0.content.1 is blank");
    }

    /** Thinking, a tool call, and the signed reasoning replayed on the next turn (a changed one is refused). */
    @Test
    void thinkingToolLoopWithSignedReasoning() {
        String thinking = ",\"additionalModelRequestFields\":{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048}},"
                + "\"inferenceConfig\":{\"maxTokens\":4000}";
        JsonNode first = json(converse("anthropic.claude-sonnet-4-5-v1%3A0", "{\"messages\":" + user("Paris?") + "," + TOOLS + thinking + "}").body());
        JsonNode content = first.path("output").path("message").path("content");
        assertThat(content.get(0).path("reasoningContent").path("reasoningText").path("signature").asText()).isNotEmpty();
        assertThat(content.get(1).path("toolUse").path("name").asText()).isEqualTo("weather");
        assertThat(first.path("stopReason").asText()).isEqualTo("tool_use");
        String toolUseId = content.get(1).path("toolUse").path("toolUseId").asText();
        String next = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"Paris?\"}]},{\"role\":\"assistant\",\"content\":"
                + Json.write(content) + "},{\"role\":\"user\",\"content\":[{\"toolResult\":{\"toolUseId\":\"" + toolUseId
                + "\",\"content\":[{\"text\":\"18C\"}]}}]}]," + TOOLS + thinking + "}";
        JsonNode second = json(converse("anthropic.claude-sonnet-4-5-v1%3A0", next).body());
        assertThat(second.path("output").path("message").path("content").get(1).path("text").asText()).startsWith("Tool result received: 18C");
        HttpResponse<String> altered = converse("anthropic.claude-sonnet-4-5-v1%3A0", next.replace("Let me think", "Let us think"));
        assertThat(altered.statusCode()).isEqualTo(400);
        assertThat(json(altered.body()).path("message").asText()).contains("Invalid `signature`");
    }

    /** Vendor A's rule behind Converse: with thinking on, a tool loop's turn must open with its reasoning. */
    @Test
    void thinkingOnAToolLoopWithoutReasoningIsRefused() {
        String loop = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"Paris?\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"weather\",\"input\":{}}}]},"
                + "{\"role\":\"user\",\"content\":[{\"toolResult\":{\"toolUseId\":\"t1\",\"content\":[{\"text\":\"18C\"}]}}]}]," + TOOLS;
        HttpResponse<String> refused = converse("m", loop + ",\"additionalModelRequestFields\":{\"thinking\":{\"type\":\"adaptive\"}}}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused.body()).path("message").asText()).contains("Expected `thinking` or `redacted_thinking`, but found `tool_use`");
        assertThat(converse("m", loop + "}").statusCode()).isEqualTo(200);
    }

    @Test
    void theStreamIsAwsEventStreamFrames() {
        HttpResponse<byte[]> r = stream("amazon.nova-pro-v1%3A0", "{\"messages\":" + user("a b") + "," + TOOLS + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/vnd.amazon.eventstream");
        List<Frame> frames = frames(r.body());
        assertThat(frames).allMatch(f -> f.messageType().equals("event"));
        assertThat(frames).extracting(Frame::type).containsExactly("messageStart", "contentBlockStart", "contentBlockDelta",
                "contentBlockDelta", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata");
        StringBuilder input = new StringBuilder();
        for (Frame f : frames) if (f.type().equals("contentBlockDelta")) input.append(f.payload().path("delta").path("toolUse").path("input").asText());
        assertThat(json(input.toString()).path("city").asText()).isEqualTo("sim");
        assertThat(frames.get(6).payload().path("stopReason").asText()).isEqualTo("tool_use");
        assertThat(frames.get(7).payload().path("usage").path("outputTokens").asInt()).isPositive();
    }

    @Test
    void errorAfterEndsTheStreamWithAnExceptionFrame() {
        HttpResponse<byte[]> r = stream("m", "{\"messages\":" + user("one two three [[sim:error_after=2]]") + "}");
        List<Frame> frames = frames(r.body());
        assertThat(frames).hasSize(3);
        assertThat(frames.get(2).messageType()).isEqualTo("exception");
        assertThat(frames.get(2).type()).isEqualTo("modelStreamErrorException");
        assertThat(frames.get(2).payload().path("message").asText()).isNotEmpty();
    }

    @Test
    void aStatusFaultOnTheStreamEndpointIsAJsonBody() {
        HttpResponse<byte[]> r = stream("m", "{\"messages\":" + user("x [[sim:status=429]]") + "}");
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(json(new String(r.body(), StandardCharsets.UTF_8)).path("message").asText()).contains("Too many requests");
    }

    private static String user(String text) {
        return "[{\"role\":\"user\",\"content\":[{\"text\":" + Json.write(Json.F.textNode(text)) + "}]}]";
    }

    private static HttpResponse<String> converse(String encodedModel, String body) {
        // a Bedrock API key: the double checks every call's credential (SigV4 is BedrockRuntimeTest's)
        return post("/model/" + encodedModel + "/converse", body, "authorization", "Bearer " + BedrockSignatures.API_KEY);
    }

    private static HttpResponse<byte[]> stream(String encodedModel, String body) {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/model/" + encodedModel + "/converse-stream"))
                    .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                    .header("authorization", "Bearer " + BedrockSignatures.API_KEY)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            return http.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Decodes the body with AWS's reference decoder, which checks both CRCs of every frame. */
    private static List<Frame> frames(byte[] body) {
        List<Message> messages = new ArrayList<>();
        new MessageDecoder(messages::add).feed(body);
        return messages.stream().map(m -> {
            String messageType = m.getHeaders().get(":message-type").getString();
            String type = m.getHeaders().get(messageType.equals("event") ? ":event-type" : ":exception-type").getString();
            return new Frame(messageType, type, json(new String(m.getPayload(), StandardCharsets.UTF_8)));
        }).toList();
    }
}
