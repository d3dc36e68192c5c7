package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.anthropic.AnthropicTokenCount;
import dev.modelgateway.wire.gemini.GeminiEmbeddings;
import dev.modelgateway.wire.openai.media.EmbeddingVectors;
import dev.modelgateway.wire.openai.media.OpenAiEmbeddings;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operations several vendors implement, each in its wire format, chosen by the model's vendor as {@link Codecs}
 * chooses the chat codec. The operations only one vendor offers (images, speech, transcriptions, upscaling, stored
 * responses, realtime) are its format's own ({@code openai/media}, {@code gemini/ImagenUpscale},
 * {@code openai/responses/StoredResponseCalls}).
 */
public final class Operations {
    private Operations() {
    }

    /**
     * Embeddings in vendor B's shape: vendor B natively; vendor D through its compatible {@code /embeddings}; vendor C
     * through {@code :batchEmbedContents} ({@link GeminiEmbeddings}), whose answer carries no usage, so the input's
     * tokens are counted here.
     *
     * @param texts the inputs as text, or null for token-id input (vendor B only: the endpoint checks it)
     */
    public static VendorOperation embeddings(ModelEntry model, ObjectNode body, List<String> texts, Integer dimensions, boolean base64) {
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
     * The vendor's exact count of a messages body's input tokens: vendor A's count endpoint; empty for the other
     * vendors, whose models the gateway counts locally.
     *
     * @param counted the caller's body reduced to {@link AnthropicTokenCount#COUNTED_FIELDS}
     */
    public static Optional<VendorOperation> countTokens(ModelEntry model, ObjectNode counted, String beta) {
        return model.vendor() == Vendor.ANTHROPIC ? Optional.of(AnthropicTokenCount.operation(counted, beta)) : Optional.empty();
    }
}
