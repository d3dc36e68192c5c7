package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChatCompletionsTest extends SimTestBase {

    static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":{\"type\":\"object\","
            + "\"properties\":{\"city\":{\"type\":\"string\"}}}}},{\"type\":\"function\",\"function\":{\"name\":\"b\",\"parameters\":{\"type\":\"object\"}}}]";

    @Test
    void openaiNonStreaming() {
        HttpResponse<String> r = openai("{\"model\":\"gpt-x\",\"messages\":" + userMessages("hi") + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode c = json(r.body());
        assertThat(c.path("object").asText()).isEqualTo("chat.completion");
        assertThat(c.path("model").asText()).isEqualTo("gpt-x");
        JsonNode choice = c.path("choices").get(0);
        assertThat(choice.path("message").path("content").asText()).isEqualTo("Hello from gpt-x. You said: hi");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        JsonNode u = c.path("usage");
        assertThat(u.path("prompt_tokens").asInt()).isEqualTo(1);
        assertThat(u.path("total_tokens").asInt()).isEqualTo(u.path("prompt_tokens").asInt() + u.path("completion_tokens").asInt());
        assertThat(u.path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
        assertThat(u.path("completion_tokens_details").path("reasoning_tokens").asInt()).isZero();
    }

    @Test
    void openaiStreamingWithUsage() {
        List<Sse> ev = sse(openai("{\"model\":\"gpt-x\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":"
                + userMessages("a b") + "}").body());
        assertThat(ev.getLast().data()).isEqualTo("[DONE]");
        JsonNode first = ev.getFirst().json();
        assertThat(first.path("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(first.path("choices").get(0).path("delta").path("role").asText()).isEqualTo("assistant");
        assertThat(first.path("choices").get(0).path("delta").path("content").asText()).isEmpty();
        assertThat(first.has("usage") && first.get("usage").isNull()).isTrue();
        JsonNode usageChunk = ev.get(ev.size() - 2).json();
        assertThat(usageChunk.path("choices")).isEmpty();
        assertThat(usageChunk.path("usage").path("completion_tokens").asInt()).isPositive();
        JsonNode finish = ev.get(ev.size() - 3).json().path("choices").get(0);
        assertThat(finish.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(finish.path("delta").isEmpty()).isTrue();
        StringBuilder text = new StringBuilder();
        for (Sse e : ev.subList(1, ev.size() - 3)) text.append(e.json().path("choices").get(0).path("delta").path("content").asText());
        assertThat(text.toString()).isEqualTo("Hello from gpt-x. You said: a b");

        List<Sse> noUsage = sse(openai("{\"model\":\"gpt-x\",\"stream\":true,\"messages\":" + userMessages("a") + "}").body());
        assertThat(noUsage.get(noUsage.size() - 2).json().path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
        assertThat(noUsage.getFirst().json().has("usage")).isFalse();
    }

    @Test
    void openaiToolCalls() {
        JsonNode c = json(openai("{\"model\":\"gpt-x\"," + TOOLS + ",\"messages\":" + userMessages("w") + "}").body());
        JsonNode msg = c.path("choices").get(0).path("message");
        assertThat(msg.path("content").isNull()).isTrue();
        assertThat(msg.path("tool_calls").get(0).path("id").asText()).startsWith("call_sim_");
        assertThat(msg.path("tool_calls").get(0).path("function").path("arguments").asText()).isEqualTo("{\"city\":\"sim\"}");
        assertThat(c.path("choices").get(0).path("finish_reason").asText()).isEqualTo("tool_calls");

        List<Sse> ev = sse(openai("{\"model\":\"gpt-x\",\"stream\":true," + TOOLS + ",\"messages\":" + userMessages("w [[sim:parallel_tools=2]]") + "}").body());
        assertThat(ev.getFirst().json().path("choices").get(0).path("delta").path("content").isNull()).isTrue();
        JsonNode firstFrag = ev.get(1).json().path("choices").get(0).path("delta").path("tool_calls").get(0);
        assertThat(firstFrag.path("index").asInt()).isZero();
        assertThat(firstFrag.path("type").asText()).isEqualTo("function");
        assertThat(firstFrag.path("function").path("name").asText()).isEqualTo("get_weather");
        assertThat(firstFrag.path("function").path("arguments").asText()).isEmpty();
        StringBuilder args0 = new StringBuilder();
        boolean sawSecond = false;
        for (Sse e : ev.subList(1, ev.size() - 2)) {
            JsonNode tc = e.json().path("choices").get(0).path("delta").path("tool_calls").get(0);
            if (tc.path("index").asInt() == 0) args0.append(tc.path("function").path("arguments").asText());
            else sawSecond = true;
        }
        assertThat(args0.toString()).isEqualTo("{\"city\":\"sim\"}");
        assertThat(sawSecond).isTrue();
        assertThat(ev.get(ev.size() - 2).json().path("choices").get(0).path("finish_reason").asText()).isEqualTo("tool_calls");

        String history = "[{\"role\":\"user\",\"content\":\"w\"},{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"{}\"}}]},{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"rainy\"}]";
        JsonNode after = json(openai("{\"model\":\"gpt-x\"," + TOOLS + ",\"messages\":" + history + "}").body());
        assertThat(after.path("choices").get(0).path("message").path("content").asText()).isEqualTo("Tool result received: rainy");
        JsonNode none = json(openai("{\"model\":\"gpt-x\"," + TOOLS + ",\"tool_choice\":\"none\",\"messages\":" + userMessages("w") + "}").body());
        assertThat(none.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void implicitCachingAndReasoningModels() {
        String sys = "{\"role\":\"system\",\"content\":\"" + "P".repeat(4400) + "\"}";
        String b1 = "{\"model\":\"o4-mini\",\"messages\":[" + sys + ",{\"role\":\"user\",\"content\":\"q1\"}]}";
        JsonNode u1 = json(openai(b1).body()).path("usage");
        assertThat(u1.path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
        JsonNode u2 = json(openai(b1.replace("q1", "q2")).body()).path("usage");
        assertThat(u2.path("prompt_tokens_details").path("cached_tokens").asInt()).isEqualTo(1100);
        assertThat(u2.path("prompt_tokens").asInt()).isEqualTo(1101);
        assertThat(u2.path("completion_tokens_details").path("reasoning_tokens").asInt()).isPositive();
        assertThat(u2.path("completion_tokens").asInt()).isGreaterThan(u2.path("completion_tokens_details").path("reasoning_tokens").asInt());
        JsonNode small = json(openai("{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"system\",\"content\":\"short\"},{\"role\":\"user\",\"content\":\"a\"}]}").body());
        JsonNode small2 = json(openai("{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"system\",\"content\":\"short\"},{\"role\":\"user\",\"content\":\"b\"}]}").body());
        assertThat(small2.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
        assertThat(small.path("usage").path("completion_tokens_details").path("reasoning_tokens").asInt()).isZero();
    }

    @Test
    void lengthStructuredOutputAndImages() {
        JsonNode c = json(openai("{\"model\":\"gpt-x\",\"max_completion_tokens\":2,\"messages\":" + userMessages("hi") + "}").body());
        assertThat(c.path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
        assertThat(c.path("choices").get(0).path("message").path("content").asText()).isEqualTo("Hello fr");
        JsonNode js = json(openai("{\"model\":\"gpt-x\",\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\",\"schema\":"
                + "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}}}}},\"messages\":" + userMessages("hi") + "}").body());
        assertThat(js.path("choices").get(0).path("message").path("content").asText()).isEqualTo("{\"ok\":true}");
        JsonNode jo = json(openai("{\"model\":\"gpt-x\",\"response_format\":{\"type\":\"json_object\"},\"messages\":" + userMessages("hi") + "}").body());
        assertThat(json(jo.path("choices").get(0).path("message").path("content").asText()).path("answer").asText())
                .isEqualTo("Hello from gpt-x. You said: hi");
        JsonNode img = json(openai("{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}]}]}").body());
        assertThat(img.path("choices").get(0).path("message").path("content").asText()).endsWith("I see 1 image(s).");
    }

    @Test
    void openaiErrors() {
        HttpResponse<String> r = post("/openai/v1/chat/completions", "{}", "authorization", "Bearer nope");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(json(r.body()).path("error").path("code").asText()).isEqualTo("invalid_api_key");
        HttpResponse<String> nf = openai("{\"model\":\"gpt-does-not-exist\",\"messages\":" + userMessages("x") + "}");
        assertThat(nf.statusCode()).isEqualTo(404);
        JsonNode e = json(nf.body()).path("error");
        assertThat(e.path("code").asText()).isEqualTo("model_not_found");
        assertThat(e.has("param")).isTrue();
        assertThat(e.path("type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void dashscopeThinkingStreamAndShape() {
        List<Sse> ev = sse(dashscope("{\"model\":\"qwen-plus\",\"stream\":true,\"enable_thinking\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":" + userMessages("why") + "}").body());
        assertThat(ev.getLast().data()).isEqualTo("[DONE]");
        StringBuilder reasoning = new StringBuilder(), content = new StringBuilder();
        boolean contentStarted = false;
        for (Sse e : ev.subList(0, ev.size() - 1)) {
            JsonNode j = e.json();
            assertThat(j.has("usage")).isTrue();
            if (j.path("choices").isEmpty()) continue;
            JsonNode d = j.path("choices").get(0).path("delta");
            if (d.hasNonNull("reasoning_content")) {
                assertThat(contentStarted).as("reasoning before content").isFalse();
                reasoning.append(d.path("reasoning_content").asText());
            }
            if (d.hasNonNull("content") && !d.path("content").asText().isEmpty()) {
                contentStarted = true;
                content.append(d.path("content").asText());
            }
        }
        assertThat(reasoning.toString()).isEqualTo("Let me think about: why");
        assertThat(content.toString()).isEqualTo("Hello from qwen-plus. You said: why");
        JsonNode usage = ev.get(ev.size() - 2).json().path("usage");
        assertThat(usage.path("completion_tokens_details").path("reasoning_tokens").asInt()).isEqualTo(Tokens.of("Let me think about: why"));

        JsonNode c = json(dashscope("{\"model\":\"qwen-plus\",\"enable_thinking\":true,\"messages\":" + userMessages("why") + "}").body());
        assertThat(c.path("choices").get(0).path("message").path("reasoning_content").asText()).isEqualTo("Let me think about: why");
        assertThat(c.path("id").asText()).startsWith("chatcmpl-");
        assertThat(c.path("system_fingerprint").isNull()).isTrue();
    }

    @Test
    void dashscopeThinksOnEnableThinkingOnlyNotOnReasoningEffort() {
        // DashScope documents enable_thinking / thinking_budget; an OpenAI reasoning_effort is not its control
        JsonNode effort = json(dashscope("{\"model\":\"qwen-plus\",\"reasoning_effort\":\"high\",\"messages\":" + userMessages("why") + "}").body());
        assertThat(effort.path("choices").get(0).path("message").has("reasoning_content")).isFalse();
        JsonNode budget = json(dashscope("{\"model\":\"qwen-plus\",\"enable_thinking\":true,\"thinking_budget\":2048,\"messages\":"
                + userMessages("why") + "}").body());
        assertThat(budget.path("choices").get(0).path("message").path("reasoning_content").asText()).isEqualTo("Let me think about: why");
    }

    @Test
    void outOfRangeParametersAreRefusedAsTheVendorsDo() {
        HttpResponse<String> t = openai("{\"model\":\"gpt-x\",\"temperature\":3,\"messages\":" + userMessages("x") + "}");
        assertThat(t.statusCode()).isEqualTo(400);
        JsonNode e = json(t.body()).path("error");
        assertThat(e.path("message").asText()).isEqualTo("Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.");
        assertThat(e.path("code").asText()).isEqualTo("decimal_above_max_value");
        assertThat(e.path("param").asText()).isEqualTo("temperature");
        HttpResponse<String> lp = openai("{\"model\":\"gpt-x\",\"logprobs\":true,\"top_logprobs\":30,\"messages\":" + userMessages("x") + "}");
        assertThat(json(lp.body()).path("error").path("message").asText()).startsWith("Invalid 'top_logprobs': integer above maximum value.");
        HttpResponse<String> bias = openai("{\"model\":\"gpt-x\",\"logit_bias\":{\"50\":-200},\"messages\":" + userMessages("x") + "}");
        assertThat(json(bias.body()).path("error").path("message").asText()).startsWith("Invalid 'logit_bias.50': integer below minimum value.");
        assertThat(openai("{\"model\":\"gpt-x\",\"temperature\":2,\"messages\":" + userMessages("x") + "}").statusCode()).isEqualTo(200);

        // DashScope's upper bound is exclusive
        HttpResponse<String> ds = dashscope("{\"model\":\"qwen-plus\",\"temperature\":2,\"messages\":" + userMessages("x") + "}");
        assertThat(ds.statusCode()).isEqualTo(400);
        assertThat(json(ds.body()).path("error").path("message").asText()).contains("Temperature should be in [0.0, 2.0)");
        assertThat(dashscope("{\"model\":\"qwen-plus\",\"temperature\":1.99,\"messages\":" + userMessages("x") + "}").statusCode()).isEqualTo(200);
    }

    @Test
    void dashscopeErrors() {
        HttpResponse<String> r = post("/dashscope/compatible-mode/v1/chat/completions", "{}", "authorization", "Bearer sim-openai-key");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(json(r.body()).path("error").path("code").asText()).isEqualTo("invalid_api_key");
        assertThat(json(r.body()).has("request_id")).isTrue();
        HttpResponse<String> s = dashscope("{\"model\":\"qwen\",\"messages\":" + userMessages("[[sim:status=429]]") + "}");
        assertThat(s.statusCode()).isEqualTo(429);
        assertThat(json(s.body()).path("error").path("code").asText()).isEqualTo("limit_requests");
    }

    @Test
    void directiveNamesTheToolAndItsArguments() {
        JsonNode c = json(openai("{\"model\":\"gpt-x\"," + TOOLS + ",\"messages\":"
                + userMessages("[[sim:tool=b;args={\"path\": \"/tmp/x\", \"n\": [1]}]] go") + "}").body());
        JsonNode call = c.path("choices").get(0).path("message").path("tool_calls").get(0).path("function");
        assertThat(call.path("name").asText()).isEqualTo("b");
        assertThat(call.path("arguments").asText()).isEqualTo("{\"path\":\"/tmp/x\",\"n\":[1]}");

        JsonNode plain = json(openai("{\"model\":\"gpt-x\"," + TOOLS + ",\"messages\":" + userMessages("[[sim:tool=none]] hi") + "}").body());
        assertThat(plain.path("choices").get(0).path("message").path("content").asText()).isEqualTo("Hello from gpt-x. You said: [[sim:tool=none]] hi");
        assertThat(plain.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");

        JsonNode forced = json(openai("{\"model\":\"gpt-x\"," + TOOLS + ",\"tool_choice\":\"required\",\"messages\":"
                + userMessages("[[sim:tool=none]] hi") + "}").body());
        assertThat(forced.path("choices").get(0).path("message").path("tool_calls").get(0).path("function").path("name").asText())
                .isEqualTo("get_weather");
    }
}
