package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The Responses API to vendor B, unchanged (its platform rules are checked by the endpoint for every model) but for
 * the reasoning items the gateway wrote for other vendors' answers ({@link ForeignReasoning}).
 */
public final class ResponsesNative implements NativeFormat {
    @Override
    public String path() {
        return "/responses";
    }

    @Override
    public void applyModelRules(ObjectNode body, ModelEntry model) {
        ForeignReasoning.strip(body);
    }

    @Override
    public StreamTap streamTap(ObjectNode body, String traceId, Consumer<String> answerIds) {
        return new ResponsesNativeTap(traceId, answerIds);
    }

    @Override
    public Set<String> answerFields() {
        return Set.of("id", "output", "usage");
    }

    @Override
    public Usage usage(JsonNode answer) {
        return ResponsesUsage.ofResponse(answer);
    }

    @Override
    public List<String> answerIds(JsonNode answer) {
        return referableIds(answer);
    }

    /**
     * A response's id and its output items' ids: vendor B resolves each of them server-side
     * ({@code previous_response_id}, {@code item_reference}, reasoning sent by id).
     */
    static List<String> referableIds(JsonNode response) {
        List<String> ids = new ArrayList<>();
        if (response.path("id").isTextual()) ids.add(response.get("id").asText());
        for (JsonNode item : response.path("output")) {
            if (item.path("id").isTextual()) ids.add(item.get("id").asText());
        }
        return ids;
    }
}
