package dev.modelgateway.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;

/**
 * One asynchronous transcription. States: {@code queued} (accepted, waiting for a worker, also after a
 * restart interrupted it), {@code running} (the vendor call is in flight), {@code succeeded} (result set),
 * {@code failed} (error set). Instants are epoch milliseconds; {@code audio} is null once the task has ended.
 *
 * @param form   the caller's form fields other than {@code file}
 * @param result {@code {"content_type","body"}} as the vendor answered, or null
 * @param error  {@code {"message","code","status"}}, or null
 */
public record TranscriptionTask(String id, String keyId, String model, String state, ObjectNode form, String fileName,
                         String fileType, byte[] audio, JsonNode result, JsonNode error, int attempts,
                         long createdAtMs, Long startedAtMs, Long finishedAtMs) {
    static final String QUEUED = "queued";
    static final String RUNNING = "running";
    static final String SUCCEEDED = "succeeded";
    static final String FAILED = "failed";

    /** The task as the caller sees it: timestamps in epoch seconds, the transcript in its requested format. */
    public ObjectNode toJson() {
        ObjectNode o = Json.MAPPER.createObjectNode().put("id", id).put("object", "audio.transcription.task")
                .put("model", model).put("status", state).put("created_at", createdAtMs / 1000);
        if (startedAtMs != null) o.put("started_at", startedAtMs / 1000); else o.putNull("started_at");
        if (finishedAtMs != null) o.put("completed_at", finishedAtMs / 1000); else o.putNull("completed_at");
        o.put("attempts", attempts);
        if (result == null) {
            o.putNull("result");
        } else {
            String body = result.path("body").asText();
            JsonNode parsed = result.path("content_type").asText().contains("json") ? Json.parseOrNull(body) : null;
            o.set("result", parsed != null ? parsed : Json.MAPPER.getNodeFactory().textNode(body));
        }
        o.set("error", error);
        return o;
    }
}
