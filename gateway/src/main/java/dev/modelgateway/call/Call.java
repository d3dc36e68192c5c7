package dev.modelgateway.call;

import dev.modelgateway.wire.CallerProtocol;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.routing.PlatformOptions;
import io.vertx.ext.web.RoutingContext;

/**
 * One validated caller request, ready to be attempted against any model of its plan.
 *
 * @param body         the caller's body without platform_options; never mutated (each attempt copies it)
 * @param maxOutputTokens the caller's output cap, 0 when unset (used for rate-limit estimates)
 */
public final class Call {
    private final RoutingContext ctx;
    private final CallerProtocol inbound;
    private final InboundCodec codec;
    private final ObjectNode body;
    private final boolean stream;
    private final PlatformOptions options;
    private final ModelEntry primary;
    private final long maxOutputTokens;
    private CanonicalRequest canonical;

    public Call(RoutingContext ctx, CallerProtocol inbound, ObjectNode body, boolean stream, PlatformOptions options,
                ModelEntry primary, long maxOutputTokens) {
        this(ctx, inbound, inbound.codec(), body, stream, options, primary, maxOutputTokens);
    }

    /** @param codec a per-call codec for the translated path, e.g. one that keeps what it produced */
    public Call(RoutingContext ctx, CallerProtocol inbound, InboundCodec codec, ObjectNode body, boolean stream,
                PlatformOptions options, ModelEntry primary, long maxOutputTokens) {
        this.ctx = ctx;
        this.inbound = inbound;
        this.codec = codec;
        this.body = body;
        this.stream = stream;
        this.options = options;
        this.primary = primary;
        this.maxOutputTokens = maxOutputTokens;
    }

    public RoutingContext ctx() { return ctx; }
    public CallerProtocol inbound() { return inbound; }
    public InboundCodec codec() { return codec; }
    public ObjectNode body() { return body; }
    public boolean stream() { return stream; }
    public PlatformOptions options() { return options; }
    public ModelEntry primary() { return primary; }
    public long maxOutputTokens() { return maxOutputTokens; }

    /** The canonical form, decoded on first use: only translated attempts need it. */
    public CanonicalRequest canonical() {
        if (canonical == null) canonical = codec.decodeRequest(body);
        return canonical;
    }
}
