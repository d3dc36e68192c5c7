package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.JsonNode;

/** Structured output request; absent means free text. */
public sealed interface ResponseFormat {
    /** @param strict null when the caller did not say (Anthropic has no such switch) */
    record JsonSchema(String name, String description, JsonNode schema, Boolean strict) implements ResponseFormat { }

    record JsonObject() implements ResponseFormat { }
}
