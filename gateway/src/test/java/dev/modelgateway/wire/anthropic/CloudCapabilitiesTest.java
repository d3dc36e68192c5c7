package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CloudCapabilitiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode body() throws Exception {
        return (ObjectNode) JSON.readTree("""
                {"model":"m","max_tokens":1000,
                 "system":[{"type":"text","text":"rules","cache_control":{"type":"ephemeral"}}],
                 "tools":[{"name":"t","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral","ttl":"1h"}}],
                 "messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]},
                             {"role":"assistant","content":"plain"},
                             {"role":"user","content":[{"type":"tool_result","tool_use_id":"x",
                               "content":[{"type":"text","text":"r","cache_control":{"type":"ephemeral"}}]}]}],
                 "thinking":{"type":"adaptive"}}""");
    }

    @Test
    void cacheMarkersStayWhereCachingIsDeclaredAndGoElsewhere() throws Exception {
        ObjectNode kept = body();
        assertThat(CloudCapabilities.apply(kept, Capabilities.NATIVE)).isEmpty();
        assertThat(kept.toString()).isEqualTo(body().toString());

        ObjectNode dropped = body();
        var noCache = new Capabilities(false, Set.of("adaptive"), true, null, null, null);
        assertThat(CloudCapabilities.apply(dropped, noCache)).singleElement().asString().contains("cache_control dropped");
        assertThat(dropped.toString()).doesNotContain("cache_control").contains("\"text\":\"rules\"", "\"text\":\"r\"");
    }

    @Test
    void anUndeclaredThinkingModeIsRefusedNotRewritten() throws Exception {
        var enabledOnly = new Capabilities(true, Set.of("enabled"), true, null, null, null);
        ObjectNode b = body();
        assertThatThrownBy(() -> CloudCapabilities.apply(b, enabledOnly))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("thinking.type", "adaptive");
                });
        assertThat(b.path("thinking").path("type").asText()).isEqualTo("adaptive");
    }

    @Test
    void theDeclaredOutputCeilingIsEnforced() throws Exception {
        var small = new Capabilities(true, Set.of("adaptive"), true, 500, null, null);
        assertThatThrownBy(() -> CloudCapabilities.apply(body(), small)).hasMessageContaining("max_tokens");
    }
}
