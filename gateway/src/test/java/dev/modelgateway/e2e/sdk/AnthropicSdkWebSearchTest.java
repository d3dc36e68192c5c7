package dev.modelgateway.e2e.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.WebSearchTool20250305;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The messages protocol's web_search_20250305 tool reaches vendor A and its server-tool blocks come back intact. */
@ExtendWith(PerClassGateway.class)
@E2e
class AnthropicSdkWebSearchTest {
    static GatewayHarness h;
    static AnthropicClient client;

    static MessageCreateParams search() {
        return MessageCreateParams.builder().model("platform/vendorA-sonnet-4.5").maxTokens(1024)
                .addUserMessage("latest gateway news")
                .addTool(WebSearchTool20250305.builder().maxUses(3).build()).build();
    }

    static void assertSearchBlocks(List<ContentBlock> content) {
        assertThat(content).hasSizeGreaterThanOrEqualTo(3);
        var use = content.get(0).asServerToolUse();
        assertThat(use.name().toString()).contains("web_search");
        assertThat(use._input().toString()).contains("latest gateway news");
        var result = content.get(1).asWebSearchToolResult();
        assertThat(result.toolUseId()).isEqualTo(use.id());
        assertThat(result.content().asResultBlocks()).hasSize(2)
                .allSatisfy(r -> assertThat(r.url()).startsWith("https://example.com/"));
        assertThat(content.get(2).isText()).isTrue();
    }

    @Test
    void jsonKeepsServerToolBlocks() {
        Message m = client.messages().create(search());
        assertSearchBlocks(m.content());
        assertThat(m.usage().serverToolUse().orElseThrow().webSearchRequests()).isEqualTo(1);
        var upstream = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(upstream.at("/tools/0/type").asText()).isEqualTo("web_search_20250305");
        assertThat(upstream.at("/tools/0/max_uses").asInt()).isEqualTo(3);
    }

    @Test
    void streamKeepsServerToolBlocks() {
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(search())) {
            s.stream().forEach(acc::accumulate);
        }
        assertSearchBlocks(acc.message().content());
        assertThat(h.ledger("platform/vendorA-sonnet-4.5", 2)).hasSizeGreaterThanOrEqualTo(2);
    }
}
