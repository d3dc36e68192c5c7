package dev.modelgateway.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.wire.CallerProtocol;
import dev.modelgateway.wire.InboundCodec;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One validated caller request, ready to be attempted against any model of its plan. The body is the
 * caller's without platform_options and is never mutated (each attempt copies it).
 */
public final class Call {
    private final Exchange exchange;
    private final long requestBytes;
    private final CallerProtocol protocol;
    private final InboundCodec codec;
    private final ObjectNode body;
    private final boolean stream;
    private final PlatformOptions options;
    private final ModelEntry primary;
    private final long maxOutputTokens;
    private final Map<String, String> forwardedHeaders = new HashMap<>();
    /** URL media already downloaded for this call, so a retry or a fallback does not download again. */
    private final Map<String, ContentBlock.Media> fetchedMedia = new HashMap<>();
    private Consumer<String> answerIds = id -> { };
    private CanonicalRequest canonical;

    /**
     * @param requestBytes    the caller's body size, for the rate-limit estimate
     * @param codec           the caller protocol's codec, or a per-call one for the translated path (e.g. one
     *                        that keeps what it produced)
     * @param maxOutputTokens the caller's output cap, 0 when unset (used for rate-limit estimates)
     */
    public Call(Exchange exchange, long requestBytes, CallerProtocol protocol, InboundCodec codec, ObjectNode body,
                boolean stream, PlatformOptions options, ModelEntry primary, long maxOutputTokens) {
        this.exchange = exchange;
        this.requestBytes = requestBytes;
        this.protocol = protocol;
        this.codec = codec;
        this.body = body;
        this.stream = stream;
        this.options = options;
        this.primary = primary;
        this.maxOutputTokens = maxOutputTokens;
    }

    /** A caller header the native path passes on to the vendor unchanged (e.g. {@code anthropic-beta}). */
    public Call forwarding(String header, String value) {
        if (value != null) forwardedHeaders.put(header, value);
        return this;
    }

    /** Told each id of a native answer the caller may refer to later (a vendor B response's and its output items'). */
    public Call onAnswerId(Consumer<String> answerIds) {
        this.answerIds = answerIds;
        return this;
    }

    public Exchange exchange() { return exchange; }
    public long requestBytes() { return requestBytes; }
    public CallerProtocol protocol() { return protocol; }
    public InboundCodec codec() { return codec; }
    public ObjectNode body() { return body; }
    public boolean stream() { return stream; }
    public PlatformOptions options() { return options; }
    public ModelEntry primary() { return primary; }
    public long maxOutputTokens() { return maxOutputTokens; }
    Map<String, String> forwardedHeaders() { return forwardedHeaders; }
    Map<String, ContentBlock.Media> fetchedMedia() { return fetchedMedia; }
    Consumer<String> answerIds() { return answerIds; }

    /** The canonical form, decoded on first use: only translated attempts need it. */
    public CanonicalRequest canonical() {
        if (canonical == null) canonical = codec.decodeRequest(body);
        return canonical;
    }
}
