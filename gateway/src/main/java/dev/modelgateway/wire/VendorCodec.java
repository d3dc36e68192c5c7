package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.error.GatewayException;

/** One per vendor: AnthropicCodec, OpenAiChatCodec, GeminiCodec, QwenCodec. Pure: no I/O. */
public interface VendorCodec {
    /** @throws GatewayException 400 when dropping a parameter would change meaning */
    EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream);

    CanonicalResponse decodeResponse(JsonNode body);

    StreamDecoder newStreamDecoder();

    /** Vendor error → canonical (keeps the vendor's message). */
    GatewayException decodeError(int httpStatus, String body);

    /**
     * Whether this vendor can be given {@code media} by URL. The server downloads the others first
     * ({@link CanonicalRequest#urlMediaNeedingBytes}) and inlines them with {@link CanonicalRequest#withInlinedMedia}.
     */
    default boolean canForwardUrl(ContentBlock.Media media) {
        return true;
    }
}
