package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalTokenCount;
import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.CloudTarget;
import dev.modelgateway.config.ProviderType;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.anthropic.AnthropicTokenCount;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.bedrock.BedrockCountTokens;
import dev.modelgateway.wire.bedrock.BedrockEmbeddings;
import dev.modelgateway.wire.bedrock.BedrockModelId;
import dev.modelgateway.wire.gemini.GeminiCodec;
import dev.modelgateway.wire.gemini.GeminiEmbeddings;
import dev.modelgateway.wire.openai.media.EmbeddingVectors;
import dev.modelgateway.wire.openai.media.OpenAiEmbeddings;
import dev.modelgateway.wire.vertex.VertexAnthropicTokenCount;
import dev.modelgateway.wire.vertex.VertexEmbeddings;
import dev.modelgateway.wire.vertex.VertexGeminiTokenCount;
import dev.modelgateway.wire.vertex.VertexLocation;
import io.vertx.core.buffer.Buffer;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operations several vendors and clouds implement, each in its wire format, chosen for the deployment the call
 * was routed to as {@link CloudWire} chooses the chat codec: a cloud deployment's own API (Bedrock's, Vertex's:
 * docs/clouds.md), else the model's vendor's. The operations only one vendor offers (images, speech, transcriptions,
 * upscaling, stored responses, realtime) are its format's own ({@code openai/media}, {@code gemini/ImagenUpscale},
 * {@code openai/responses/StoredResponseCalls}).
 */
public final class Operations {
    private static final MessagesInbound MESSAGES = new MessagesInbound();

    private Operations() {
    }

    /**
     * Embeddings in vendor B's shape on the chosen deployment: vendor B natively; vendor D through its compatible
     * {@code /embeddings}; vendor C through {@code :batchEmbedContents} ({@link GeminiEmbeddings}), whose answer carries
     * no usage, so the input's tokens are counted here; Bedrock's Titan Text Embeddings and Cohere Embed through
     * InvokeModel ({@link BedrockEmbeddings}); Vertex's text embedding models through {@code :predict}
     * ({@link VertexEmbeddings}).
     *
     * @param on    the chosen deployment's endpoint
     * @param texts the inputs as text, or null for token-id input (vendor B's own models only)
     */
    public static DeploymentOperation embeddings(VendorEndpoint on, ModelEntry model, ObjectNode body, List<String> texts,
                                                 Integer dimensions, boolean base64) {
        CloudTarget cloud = on.cloud();
        if (cloud != null && (on.type() == ProviderType.BEDROCK || on.type() == ProviderType.VERTEX)) {
            if (texts == null) {
                throw GatewayException.invalid("input", "Token-id input is accepted only by vendor B's own models; send text to "
                        + model.id() + ".");
            }
            return on.type() == ProviderType.BEDROCK ? BedrockEmbeddings.operation(texts, dimensions, model.id(), base64)
                    : VertexEmbeddings.operation(location(cloud), model.id(), texts, dimensions, null, base64);
        }
        return switch (model.vendor()) {
            case OPENAI -> OpenAiEmbeddings.operation(body, model.id(), Vendor.OPENAI, base64, false);
            case DASHSCOPE -> OpenAiEmbeddings.operation(body, model.id(), Vendor.DASHSCOPE, base64, true);
            case GEMINI -> geminiEmbeddings(model.id(), texts, dimensions, base64);
            case ANTHROPIC -> throw GatewayException.of(ErrorKind.INTERNAL, "vendor A has no embeddings");
        };
    }

    private static VendorOperation geminiEmbeddings(String publicModel, List<String> texts, Integer dimensions, boolean base64) {
        // Vendor C's answer has no usage: the input's tokens are counted with the request, which the runner encodes
        // beside the event loop when the body is large (the answer may be small however long the input was).
        AtomicLong tokens = new AtomicLong();
        OperationAnswer answer = new OperationAnswer.Json(vendorBody -> {
            ObjectNode list = EmbeddingVectors.list(GeminiEmbeddings.vectors(VendorJson.object(vendorBody, Vendor.GEMINI)),
                    publicModel, base64, tokens.get());
            return new OperationAnswer.Decoded(Json.toBuffer(list), new Usage(tokens.get(), 0, 0, 0, 0, 0));
        });
        return new VendorOperation(upstreamModel -> {
            long counted = 0;
            for (String text : texts) counted += LocalTokenizer.count(text);
            tokens.set(counted);
            EncodedRequest encoded = GeminiEmbeddings.encode(upstreamModel, texts, dimensions);
            return OperationRequest.json(encoded.path(), encoded.body());
        }, answer, new VendorErrors.Decoded(Codecs.of(Vendor.GEMINI)));
    }

    /**
     * A messages body's input tokens on the chosen deployment, counted exactly where its API counts: vendor A's count
     * endpoint; Bedrock's CountTokens for a vendor A model whose foundation model the deployment's id or declared
     * {@code base_model} names ({@link BedrockCountTokens#countingModel}); Vertex's count-tokens for vendor A's models
     * and {@code :countTokens} for Gemini. Everything else (vendors B, C and D on their own APIs, a Bedrock model
     * CountTokens cannot name, Converse's other models) is counted here ({@link CanonicalTokenCount}), answered as
     * {@code {"input_tokens":N}}.
     *
     * @param on            the chosen deployment's endpoint
     * @param upstreamModel the chosen deployment's id of the model
     * @param counted       the caller's body reduced to {@link AnthropicTokenCount#COUNTED_FIELDS}
     * @param beta          the caller's {@code anthropic-beta} header (already allowed), or null
     */
    public static DeploymentOperation countTokens(VendorEndpoint on, String upstreamModel, Vendor vendor, ObjectNode counted,
                                                  String beta) {
        CloudTarget cloud = on.cloud();
        if (cloud != null && on.type() == ProviderType.BEDROCK) {
            String countingModel = vendor == Vendor.ANTHROPIC ? bedrockCountingModel(upstreamModel, cloud) : null;
            if (countingModel == null) return local(counted);
            VendorOperation count = BedrockCountTokens.operation(counted, beta);
            return new VendorOperation(deployed -> count.encode(countingModel), count.answer(), count.errors());
        }
        if (cloud != null && on.type() == ProviderType.VERTEX) {
            return vendor == Vendor.ANTHROPIC ? VertexAnthropicTokenCount.operation(location(cloud), counted, beta)
                    : VertexGeminiTokenCount.operation(location(cloud), () -> decode(counted), new GeminiCodec());
        }
        return vendor == Vendor.ANTHROPIC ? AnthropicTokenCount.operation(counted, beta) : local(counted);
    }

    /** CountTokens takes a foundation model's bare id: the one the deployment's id names, else its declared base model. */
    private static String bedrockCountingModel(String upstreamModel, CloudTarget cloud) {
        try {
            return BedrockCountTokens.countingModel(BedrockModelId.parse(upstreamModel), cloud.capabilities());
        } catch (IllegalArgumentException e) {
            return null; // an id Bedrock does not know names no model to count with
        }
    }

    /**
     * Decoding validates the body and names the offending field like the messages endpoint does; decoding and
     * tokenizing walk the whole body, which the runner does beside the event loop when it is large.
     */
    private static LocalAnswer local(ObjectNode counted) {
        return new LocalAnswer(() -> Buffer.buffer("{\"input_tokens\":" + CanonicalTokenCount.count(decode(counted)) + "}"));
    }

    /** The counted body as the messages endpoint decodes it; {@code max_tokens}, which a count has not, set to decode it. */
    private static CanonicalRequest decode(ObjectNode counted) {
        return MESSAGES.decodeRequest(counted.deepCopy().put("max_tokens", 1));
    }

    private static VertexLocation location(CloudTarget cloud) {
        return new VertexLocation(cloud.account().project(), cloud.account().location());
    }
}
