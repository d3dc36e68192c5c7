package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.List;

import static dev.modelgateway.wire.FieldBounds.given;
import static dev.modelgateway.wire.FieldBounds.integer;
import static dev.modelgateway.wire.FieldBounds.number;
import static dev.modelgateway.wire.FieldBounds.object;
import static dev.modelgateway.wire.FieldBounds.oneOf;

/**
 * What vendor B itself refuses in the sampling, {@code reasoning} and {@code text} fields of a Responses request
 * (its OpenAPI document's ranges and enums), checked once for every call whichever vendor serves it, so a
 * translated call gets the 400 the native one would. ({@code reasoning.effort}'s values are the platform's
 * rule, {@link ResponsesRules}.)
 */
final class ResponsesRequestBounds {
    static final List<String> SUMMARIES = List.of("auto", "concise", "detailed");
    static final List<String> FORMATS = List.of("text", "json_schema", "json_object");
    static final List<String> VERBOSITIES = List.of("low", "medium", "high");

    private ResponsesRequestBounds() { }

    static void check(JsonNode body) {
        number(body, "temperature", "temperature", 0, 2);
        number(body, "top_p", "top_p", 0, 1);
        integer(body, "top_logprobs", "top_logprobs", 0, 20);
        JsonNode reasoning = object(body, "reasoning", "reasoning");
        JsonNode effort = given(reasoning, "effort");
        if (effort != null && !effort.isTextual()) throw Fields.wrongType("reasoning.effort", "a string", effort);
        oneOf(reasoning, "summary", "reasoning.summary", SUMMARIES);
        oneOf(reasoning, "generate_summary", "reasoning.generate_summary", SUMMARIES);
        JsonNode text = object(body, "text", "text");
        oneOf(text, "verbosity", "text.verbosity", VERBOSITIES);
        JsonNode format = object(text, "format", "text.format");
        if (format == null) return;
        if (given(format, "type") == null) throw GatewayException.invalid("text.format.type", "Missing required parameter: 'text.format.type'.");
        oneOf(format, "type", "text.format.type", FORMATS);
        if (format.get("type").asText().equals("json_schema")) {
            if (given(format, "name") == null) {
                throw GatewayException.invalid("text.format.name", "Missing required parameter: 'text.format.name'.");
            }
            if (!format.get("name").isTextual()) throw Fields.wrongType("text.format.name", "a string", format.get("name"));
            if (object(format, "schema", "text.format.schema") == null) {
                throw GatewayException.invalid("text.format.schema", "Missing required parameter: 'text.format.schema'.");
            }
        }
    }
}
