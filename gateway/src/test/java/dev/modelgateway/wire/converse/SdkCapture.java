package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.modelgateway.json.Json;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.document.Document;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The AWS SDK for Java's {@link BedrockRuntimeClient} pointed at a capturing local HTTP server (static dummy
 * credentials): what the SDK sends for a {@link ConverseRequest} (raw path and JSON body), and what it makes of an
 * answer the server gives back.
 */
final class SdkCapture implements AutoCloseable {
    /** One request as the SDK sent it: the path as on the wire (still percent-encoded) and the body. */
    record Sent(String rawPath, JsonNode body) {
    }

    private final HttpServer server;
    private final BedrockRuntimeClient client;
    private final AtomicReference<Sent> last = new AtomicReference<>();
    private volatile String answer = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"ok\"}]}},"
            + "\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":1,\"outputTokens\":1,\"totalTokens\":2},\"metrics\":{\"latencyMs\":1}}";

    SdkCapture() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            last.set(new Sent(ex.getRequestURI().getRawPath(), Json.MAPPER.readTree(body)));
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("content-type", "application/json");
            ex.sendResponseHeaders(200, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        server.start();
        client = BedrockRuntimeClient.builder()
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** Sends the request with the SDK; returns what reached the server. */
    Sent send(ConverseRequest request) {
        client.converse(request);
        return last.get();
    }

    /** The SDK's reading of {@code json} as a Converse answer. */
    ConverseResponse answer(String json) {
        answer = json;
        return client.converse(ConverseRequest.builder().modelId("m")
                .messages(m -> m.role("user").content(c -> c.text("hi"))).build());
    }

    @Override
    public void close() {
        client.close();
        server.stop(0);
    }

    /** A JSON tree as the SDK's {@link Document} (tool schemas, tool inputs, additional model fields). */
    static Document doc(JsonNode n) {
        if (n.isObject()) {
            Map<String, Document> m = new java.util.LinkedHashMap<>();
            n.properties().forEach(e -> m.put(e.getKey(), doc(e.getValue())));
            return Document.fromMap(m);
        }
        if (n.isArray()) {
            List<Document> l = new ArrayList<>();
            n.forEach(v -> l.add(doc(v)));
            return Document.fromList(l);
        }
        if (n.isTextual()) return Document.fromString(n.asText());
        if (n.isBoolean()) return Document.fromBoolean(n.asBoolean());
        if (n.isIntegralNumber()) return Document.fromNumber(n.asLong());
        if (n.isNumber()) return Document.fromNumber(n.decimalValue());
        return Document.fromNull();
    }

    static Document doc(String json) {
        try {
            return doc(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
