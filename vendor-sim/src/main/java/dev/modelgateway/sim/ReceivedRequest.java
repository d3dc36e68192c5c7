package dev.modelgateway.sim;

import java.util.Map;

/**
 * One vendor request as the simulator saw it. {@code path} is the request URI (path plus query, e.g.
 * {@code /gemini/v1beta/models/x:streamGenerateContent?alt=sse}). Header names are lower-case; repeated
 * headers are joined with ", ".
 */
public record ReceivedRequest(String vendor, String method, String path, Map<String, String> headers,
                              String body, boolean clientClosedEarly) {
}
