package dev.modelgateway.endpoint.embeddings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.SingleAttempt;
import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.Codecs;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.gemini.GeminiEmbeddings;
import dev.modelgateway.wire.openai.media.EmbeddingVectors;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/v1/embeddings} in vendor B's shape, for every embedding model of the catalogue:
 * vendor B natively; vendor D through its OpenAI-compatible {@code /embeddings}; vendor C through
 * {@code :batchEmbedContents} ({@link GeminiEmbeddings}), whose answer carries no usage, so input tokens are counted locally.
 */
public final class EmbeddingsEndpoint {
    static final long TIMEOUT_MS = 60_000;
    private final CallServices platform;

    public EmbeddingsEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        // reading checks every input item: beside the event loop when the body is large
        JsonBody.read(ctx, EmbeddingsRequest::parse, req -> handle(ctx, req));
    }

    private void handle(RoutingContext ctx, EmbeddingsRequest req) {
        ModelEntry model = platform.catalogue().resolve(req.model());
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.EMBEDDING) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' is not an embedding model; GET /api/v1/models "
                    + "lists them (e.g. platform/text-embedding-3-small).");
        }
        if (req.texts() == null && model.vendor() != Vendor.OPENAI) {
            throw GatewayException.invalid("input", "Token-id input is accepted only by vendor B models; send text to " + model.id() + ".");
        }
        SingleAttempt.run(platform, Exchange.of(ctx), ctx.body().length(), model, 0, () -> switch (model.vendor()) {
            case OPENAI, DASHSCOPE -> openAiShaped(ctx, req, platform.route(model));
            case GEMINI -> gemini(ctx, req, platform.route(model));
            case ANTHROPIC -> Future.failedFuture(GatewayException.of(ErrorKind.INTERNAL, "vendor A has no embeddings"));
        });
    }

    /**
     * Vendor B answers in the caller's shape already; vendor D's compatible mode too, but it is always
     * asked for floats (base64 support varies) and encoded here when the caller wants base64.
     */
    private Future<RelayOutcome> openAiShaped(RoutingContext ctx, EmbeddingsRequest req, CallServices.Routed routed) {
        ModelEntry model = routed.model();
        boolean encodeHere = model.vendor() == Vendor.DASHSCOPE && req.base64();
        // serializing the input: beside the event loop when it is large
        Future<Buffer> bytes = SingleAttempt.bodyWork(Exchange.of(ctx), ctx.body().length(), () -> {
            ObjectNode body = Json.MAPPER.createObjectNode().setAll(req.body());
            body.put("model", model.upstreamId());
            if (encodeHere) body.put("encoding_format", "float");
            return Json.toBuffer(body);
        });
        JsonAnswer answer = vendorBody -> {
            ObjectNode parsed = parse(vendorBody.toString(), model);
            Usage usage = new Usage(parsed.path("usage").path("prompt_tokens").asLong(0), 0, 0, 0, 0, 0);
            parsed.put("model", model.id());
            if (encodeHere) {
                for (JsonNode d : parsed.path("data")) ((ObjectNode) d).set("embedding", EmbeddingVectors.encode(d.get("embedding"), true));
            }
            return new JsonAnswer.Answer(Json.toBuffer(parsed), usage);
        };
        return bytes.compose(body -> platform.relay().json(Exchange.of(ctx), upstream(routed, "/embeddings", body), answer,
                VendorErrorMapper.NATIVE));
    }

    /** Vendor C's request for the texts, and their tokens counted here (its answer has none). */
    private record GeminiRequest(String path, Buffer body, long tokens) {
    }

    private Future<RelayOutcome> gemini(RoutingContext ctx, EmbeddingsRequest req, CallServices.Routed routed) {
        ModelEntry model = routed.model();
        // tokenizing and encoding every text: beside the event loop when the body is large
        return SingleAttempt.bodyWork(Exchange.of(ctx), ctx.body().length(), () -> {
            long tokens = 0;
            for (String text : req.texts()) tokens += LocalTokenizer.count(text);
            EncodedRequest encoded = GeminiEmbeddings.encode(model.upstreamId(), req.texts(), req.dimensions());
            return new GeminiRequest(encoded.path(), Json.toBuffer(encoded.body()), tokens);
        }).compose(encoded -> {
            JsonAnswer answer = vendorBody -> new JsonAnswer.Answer(Json.toBuffer(
                    EmbeddingVectors.list(GeminiEmbeddings.vectors(parse(vendorBody.toString(), model)), model.id(),
                            req.base64(), encoded.tokens())),
                    new Usage(encoded.tokens(), 0, 0, 0, 0, 0));
            VendorErrorMapper errors = e -> Codecs.of(Vendor.GEMINI).decodeError(e.status(), e.body().toString());
            return platform.relay().json(Exchange.of(ctx), upstream(routed, encoded.path(), encoded.body()), answer, errors);
        });
    }

    private VendorRequest upstream(CallServices.Routed routed, String path, Buffer body) {
        return new VendorRequest(routed.endpoint(), path,
                MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json"), body, Deadline.ofMillis(TIMEOUT_MS));
    }

    private static ObjectNode parse(String body, ModelEntry model) {
        JsonNode parsed = Json.parseOrNull(body);
        if (!(parsed instanceof ObjectNode o)) {
            throw GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + model.vendor().id() + "' returned invalid JSON.");
        }
        return o;
    }
}
