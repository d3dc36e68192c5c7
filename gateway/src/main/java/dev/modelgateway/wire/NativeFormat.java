package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A caller protocol as its own vendor speaks it, for the native fast path: the body is forwarded with only
 * {@code model} rewritten and the format's model rules applied, and the answer is relayed as the vendor sent
 * it, only observed for usage. Pure: the call runner does the I/O.
 */
public interface NativeFormat {
    /** The vendor's path for this format, relative to its base URL. */
    String path();

    /**
     * Applies the platform's rules for {@code model} to the outgoing body (a copy the caller's request with the
     * vendor's model id); throws a 400 naming the field when the body breaks one.
     */
    void applyModelRules(ObjectNode body, ModelEntry model);

    /**
     * Rewrites caller fields that the model's vendor spells its own way (a dialect of this format) and returns
     * one warning per field whose effect changed, for the response's warnings header.
     */
    default List<String> adaptToDialect(ObjectNode body, ModelEntry model) {
        return List.of();
    }

    /**
     * Prepares the outgoing body of a streamed call and returns the tap that watches the vendor's stream;
     * {@code answerIds} is told each id of the vendor's answer that the caller may refer to later, where the
     * format has them (a Responses {@code previous_response_id}, its output items' ids).
     */
    StreamTap streamTap(ObjectNode body, String traceId, Consumer<String> answerIds);

    /**
     * The top-level fields of a vendor's JSON answer that {@link #usage} and {@link #answerIds} read: only
     * those are built as trees, the rest of the answer is relayed without being materialised.
     */
    default Set<String> answerFields() {
        return Set.of("usage");
    }

    /** The usage in a vendor's JSON answer (of which only {@link #answerFields} need be present). */
    Usage usage(JsonNode answer);

    /** The ids in a vendor's JSON answer that the caller may refer to later (see {@link #streamTap}). */
    default List<String> answerIds(JsonNode answer) {
        return List.of();
    }
}
