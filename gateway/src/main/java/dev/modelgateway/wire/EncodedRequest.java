package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * @param path     relative to the vendor base URL, e.g. "/v1/messages", "/chat/completions",
 *                 "/v1beta/models/gemini-x:streamGenerateContent?alt=sse"
 * @param warnings dropped-parameter notes for a response header
 */
public record EncodedRequest(String path, ObjectNode body, Map<String, String> headers, List<String> warnings) {
    public EncodedRequest {
        headers = Map.copyOf(headers);
        warnings = List.copyOf(warnings);
    }
}
