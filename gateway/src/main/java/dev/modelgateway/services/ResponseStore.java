package dev.modelgateway.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The responses the gateway itself produced (translated models) with the input they answered, so that
 * {@code previous_response_id}, {@code item_reference} and {@code GET/DELETE /responses/{id}} work although those
 * vendors are stateless (docs/endpoints.md, "Stored responses"). In this process ({@link LocalResponses}) with the
 * embedded database; in PostgreSQL ({@link SqlResponses}) when the gateway has one, so that a conversation
 * continues through any instance. Either way bounded ({@link ResponseBounds}: per response, in total, idle expiry)
 * and scoped to the API key that made each response: another key's id is answered as an unknown one.
 */
public sealed interface ResponseStore permits LocalResponses, SqlResponses {

    /**
     * @param keyId        the API key that created the response; other keys can neither see it nor chain onto it
     * @param inputJson    the input items ({@link Input})
     * @param responseJson the response object
     */
    record Stored(String keyId, byte[] inputJson, byte[] responseJson) {
        /** The items the response was generated from (the expanded input), parsed anew for each use. */
        public ArrayNode input() {
            return (ArrayNode) parse(inputJson);
        }

        /** The response object as the caller received it. */
        public ObjectNode response() {
            return (ObjectNode) parse(responseJson);
        }

        /** The whole conversation: the input items followed by the output items. */
        public ArrayNode items() {
            ArrayNode items = input();
            if (response().path("output") instanceof ArrayNode output) items.addAll(output);
            return items;
        }

        long bytes() {
            return (long) inputJson.length + responseJson.length;
        }

        private static JsonNode parse(byte[] json) {
            return Json.parseOrNull(new String(json, StandardCharsets.UTF_8));
        }
    }

    /**
     * A request's (expanded) input items, serialized before the call so that storing its response neither walks
     * nor copies them when it completes: the input may be megabytes, serialized beside the event loop then
     * (docs/security.md), while the response is stored before the caller sees it.
     */
    record Input(byte[] json) {
        public static Input of(ArrayNode items) {
            return new Input(Json.toBuffer(items).getBytes());
        }
    }

    /** Responses kept in this process only. */
    static ResponseStore inProcess() {
        return new LocalResponses(ResponseBounds.LOCAL);
    }

    ResponseBounds bounds();

    /**
     * Keeps a response the caller is about to receive. Not kept (and the future says why) when it is larger
     * than {@link ResponseBounds#maxResponseBytes()}.
     *
     * @param response the response object with its output, as the caller receives it
     */
    Future<Void> put(String responseId, String keyId, Input input, ObjectNode response);

    /**
     * The stored responses among {@code responseIds} that {@code keyId} made, by id; an unknown, expired or other
     * key's id is absent. Each one found counts as a use (its idle expiry starts again).
     */
    Future<Map<String, Stored>> find(Collection<String> responseIds, String keyId);

    /** One stored response, or null when unknown, expired or made by another key. */
    default Future<Stored> find(String responseId, String keyId) {
        return find(List.of(responseId), keyId).map(found -> found.get(responseId));
    }

    /** Forgets a stored response; false when unknown, expired or made by another key (then nothing changes). */
    Future<Boolean> remove(String responseId, String keyId);

    /** Waits for the responses being written, then stops the sweep. */
    Future<Void> close();
}
