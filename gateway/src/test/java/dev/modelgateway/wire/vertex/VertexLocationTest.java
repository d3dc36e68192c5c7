package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VertexLocationTest {
    private static final VertexLocation AT = new VertexLocation("my-project", "us-east5");

    @Test
    void pathsOfBothPublishers() {
        assertThat(AT.anthropicPath("claude-sonnet-4@20250514", false))
                .isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict");
        assertThat(AT.anthropicPath("claude-sonnet-4@20250514", true)).endsWith(":streamRawPredict");
        assertThat(AT.anthropicCountTokensPath())
                .isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict");
        assertThat(AT.googlePath("text-embedding-005", "predict"))
                .isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/google/models/text-embedding-005:predict");
        assertThat(new VertexLocation("example.com:my-project", "global").resourcePrefix())
                .isEqualTo("/v1/projects/example.com:my-project/locations/global");
    }

    @Test
    void whatWouldLeaveThePathSegmentIsRefusedNamingTheField() {
        assertThatThrownBy(() -> AT.anthropicPath("claude/../../x", false)).hasMessageStartingWith("model:");
        assertThatThrownBy(() -> AT.googlePath("gemini?key=x", "generateContent")).hasMessageStartingWith("model:");
        assertThatThrownBy(() -> new VertexLocation("My Project", "us-east5")).hasMessageStartingWith("project:");
        assertThatThrownBy(() -> new VertexLocation("my-project", "us-east5/../x")).hasMessageStartingWith("location:");
    }

    @Test
    void theRawPredictBodyLosesTheModelAndGainsTheVersionAndNothingElseChanges() {
        ObjectNode body = (ObjectNode) Fixtures.parse("""
                {"model":"claude-sonnet-4-5","anthropic_version":"bedrock-2023-05-31","max_tokens":10,"stream":true,
                 "messages":[{"role":"user","content":[{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}]}]}""");
        ObjectNode expected = body.deepCopy();
        expected.remove("model");
        expected.put("anthropic_version", VertexAnthropic.VERSION);
        assertThat(VertexAnthropic.prepare(body, AT, "claude-sonnet-4-5@20250929")).endsWith("claude-sonnet-4-5@20250929:streamRawPredict");
        assertThat(body).isEqualTo(expected);
    }
}
