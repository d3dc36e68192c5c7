package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Vendor A's computer use tool: called only when its beta is where the service takes it (header, or Bedrock's body). */
class ComputerUseTest extends SimTestBase {
    private static final String TOOL = "{\"type\":\"computer_20250124\",\"name\":\"computer\",\"display_width_px\":1280,\"display_height_px\":800}";
    private static final String MESSAGES = "{\"model\":\"claude-sonnet-4-8\",\"max_tokens\":100,\"tools\":[" + TOOL + "],"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Look\"}]}";
    private static final String INVOKE = "{\"anthropic_version\":\"bedrock-2023-05-31\",%s\"max_tokens\":100,\"tools\":[" + TOOL + "],"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Look\"}]}";
    private static final String INVOKE_PATH = "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke";

    @Test
    void withItsBetaHeaderTheToolIsCalledWithAScreenshot() {
        HttpResponse<String> r = post("/anthropic/v1/messages", MESSAGES, "x-api-key", SimKeys.defaults().anthropic(),
                "anthropic-version", "2023-06-01", "anthropic-beta", "fine-grained-tool-streaming-2025-05-14, computer-use-2025-01-24");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode call = json(r.body()).path("content").get(0);
        assertThat(call.path("name").asText()).isEqualTo("computer");
        assertThat(call.path("input").toString()).isEqualTo("{\"action\":\"screenshot\"}");
    }

    @Test
    void withoutItsBetaTheToolIsRefused() {
        HttpResponse<String> r = post("/anthropic/v1/messages", MESSAGES, "x-api-key", SimKeys.defaults().anthropic(),
                "anthropic-version", "2023-06-01", "anthropic-beta", "computer-use-2025-11-24");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r.body()).at("/error/message").asText())
                .isEqualTo("tools.0: the tool type 'computer_20250124' requires the beta 'computer-use-2025-01-24'");
    }

    @Test
    void bedrockWantsTheBetaInTheBodyNotInAHeader() {
        String key = "Bearer " + BedrockSignatures.API_KEY;
        HttpResponse<String> header = post(INVOKE_PATH, INVOKE.formatted(""), "authorization", key, "anthropic-beta", "computer-use-2025-01-24");
        assertThat(header.statusCode()).isEqualTo(400);
        assertThat(header.headers().firstValue("x-amzn-ErrorType").orElse("")).startsWith("ValidationException:");
        HttpResponse<String> body = post(INVOKE_PATH, INVOKE.formatted("\"anthropic_beta\":[\"computer-use-2025-01-24\"],"), "authorization", key);
        assertThat(body.statusCode()).isEqualTo(200);
        assertThat(json(body.body()).at("/content/0/name").asText()).isEqualTo("computer");
    }
}
