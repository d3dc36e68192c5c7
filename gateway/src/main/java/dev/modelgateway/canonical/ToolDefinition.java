package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.JsonNode;

/** A client-side function tool. {@code schema} is the caller's JSON Schema, never rewritten here. */
public record ToolDefinition(String name, String description, JsonNode schema, Boolean strict, CacheMarker cache) { }
