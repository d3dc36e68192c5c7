package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GeminiTest extends SimTestBase {

    static String userContents(String text) {
        return "[{\"role\":\"user\",\"parts\":[{\"text\":" + Json.write(Json.F.textNode(text)) + "}]}]";
    }

    static final String TOOLS = "\"tools\":[{\"functionDeclarations\":[{\"name\":\"weather\",\"parameters\":{\"type\":\"OBJECT\",\"properties\":"
            + "{\"city\":{\"type\":\"STRING\"}}}},{\"name\":\"other\",\"parameters\":{\"type\":\"OBJECT\"}}]}]";

    @Test
    void generateContentShape() {
        HttpResponse<String> r = gemini("gemini-2.5-flash", "generateContent", "{\"contents\":" + userContents("hello") + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode j = json(r.body());
        JsonNode cand = j.path("candidates").get(0);
        assertThat(cand.path("content").path("role").asText()).isEqualTo("model");
        assertThat(cand.path("content").path("parts").get(0).path("text").asText()).isEqualTo("Hello from gemini-2.5-flash. You said: hello");
        assertThat(cand.path("finishReason").asText()).isEqualTo("STOP");
        JsonNode u = j.path("usageMetadata");
        assertThat(u.path("totalTokenCount").asInt()).isEqualTo(u.path("promptTokenCount").asInt() + u.path("candidatesTokenCount").asInt());
        assertThat(j.path("modelVersion").asText()).isEqualTo("gemini-2.5-flash");
        assertThat(j.has("responseId")).isTrue();
    }

    @Test
    void streamIsCrlfFramedWithUsageOnEveryChunk() {
        HttpResponse<String> r = gemini("gemini-2.5-flash", "streamGenerateContent", "{\"contents\":" + userContents("a b c") + "}");
        assertThat(r.body()).contains("\r\n\r\n").doesNotContain("[DONE]");
        List<Sse> ev = sse(r.body());
        assertThat(ev).hasSize(AnswerPlanner.words("Hello from gemini-2.5-flash. You said: a b c").size());
        for (Sse e : ev) assertThat(e.json().has("usageMetadata")).isTrue();
        assertThat(ev.getLast().json().path("candidates").get(0).path("finishReason").asText()).isEqualTo("STOP");
        assertThat(ev.getFirst().json().path("candidates").get(0).has("finishReason")).isFalse();
    }

    @Test
    void functionCallsWithThoughtSignatures() {
        String body = "{\"contents\":" + userContents("w") + "," + TOOLS + ",\"generationConfig\":{\"thinkingConfig\":{\"includeThoughts\":true}}}";
        JsonNode j = json(gemini("gemini-3-flash-preview", "generateContent", body).body());
        JsonNode parts = j.path("candidates").get(0).path("content").path("parts");
        assertThat(parts.get(0).path("thought").asBoolean()).isTrue();
        JsonNode call = parts.get(1);
        assertThat(call.path("functionCall").path("name").asText()).isEqualTo("weather");
        assertThat(call.path("functionCall").path("args").path("city").asText()).isEqualTo("sim");
        assertThat(call.path("functionCall").has("id")).isFalse();
        assertThat(call.path("thoughtSignature").asText()).isNotEmpty();
        assertThat(j.path("usageMetadata").path("thoughtsTokenCount").asInt()).isPositive();

        String replayOk = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"w\"}]},{\"role\":\"model\",\"parts\":[" + Json.write(call)
                + "]},{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"name\":\"weather\",\"response\":{\"output\":\"18C\"}}}]}]," + TOOLS + "}";
        JsonNode ok = json(gemini("gemini-3-flash-preview", "generateContent", replayOk).body());
        assertThat(ok.path("candidates").get(0).path("content").path("parts").get(0).path("text").asText())
                .isEqualTo("Tool result received: {\"output\":\"18C\"}");

        String replayBad = replayOk.replaceAll(",\"thoughtSignature\":\"[^\"]*\"", "");
        HttpResponse<String> bad = gemini("gemini-3-flash-preview", "generateContent", replayBad);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad.body()).path("error").path("status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(gemini("gemini-2.5-flash", "generateContent", replayBad).statusCode()).isEqualTo(200);
    }

    @Test
    void parallelFunctionCallsStream() {
        List<Sse> ev = sse(gemini("gemini-2.5-flash", "streamGenerateContent", "{\"contents\":" + userContents("w [[sim:parallel_tools=2]]")
                + "," + TOOLS + "}").body());
        JsonNode parts = ev.getFirst().json().path("candidates").get(0).path("content").path("parts");
        assertThat(parts).hasSize(2);
        assertThat(ev.getLast().json().path("candidates").get(0).path("finishReason").asText()).isEqualTo("STOP");
    }

    @Test
    void maxTokensStructuredAndCountTokens() {
        JsonNode j = json(gemini("gemini-x", "generateContent", "{\"contents\":" + userContents("hi")
                + ",\"generationConfig\":{\"maxOutputTokens\":2}}").body());
        assertThat(j.path("candidates").get(0).path("finishReason").asText()).isEqualTo("MAX_TOKENS");
        JsonNode s = json(gemini("gemini-x", "generateContent", "{\"contents\":" + userContents("hi")
                + ",\"generationConfig\":{\"responseMimeType\":\"application/json\",\"responseSchema\":{\"type\":\"OBJECT\",\"properties\":{\"n\":{\"type\":\"INTEGER\"}}}}}").body());
        assertThat(s.path("candidates").get(0).path("content").path("parts").get(0).path("text").asText()).isEqualTo("{\"n\":1}");
        JsonNode ct = json(gemini("gemini-x", "countTokens", "{\"contents\":" + userContents("12345678") + "}").body());
        assertThat(ct.path("totalTokens").asInt()).isEqualTo(2);
    }

    @Test
    void implicitCacheReported() {
        String body = "{\"systemInstruction\":{\"parts\":[{\"text\":\"" + "G".repeat(4800) + "\"}]},\"contents\":" + userContents("q1") + "}";
        gemini("gemini-cache", "generateContent", body);
        JsonNode u = json(gemini("gemini-cache", "generateContent", body.replace("q1", "q2")).body()).path("usageMetadata");
        assertThat(u.path("cachedContentTokenCount").asInt()).isEqualTo(1200);
        assertThat(u.path("promptTokenCount").asInt()).isEqualTo(1201);
    }

    @Test
    void errors() {
        HttpResponse<String> r = post("/gemini/v1beta/models/gemini-x:generateContent?key=bad", "{}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r.body()).path("error").path("status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(post("/gemini/v1beta/models/gemini-x:generateContent?key=sim-gemini-key", "{\"contents\":" + userContents("x") + "}").statusCode())
                .isEqualTo(200);
        HttpResponse<String> nf = gemini("gemini-does-not-exist", "generateContent", "{\"contents\":" + userContents("x") + "}");
        assertThat(nf.statusCode()).isEqualTo(404);
        assertThat(json(nf.body()).path("error").path("status").asText()).isEqualTo("NOT_FOUND");
        HttpResponse<String> q = gemini("gemini-x", "generateContent", "{\"contents\":" + userContents("[[sim:status=429]]") + "}");
        assertThat(q.statusCode()).isEqualTo(429);
        assertThat(json(q.body()).path("error").path("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(json(q.body()).path("error").path("code").asInt()).isEqualTo(429);
    }
}
