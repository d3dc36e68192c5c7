package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/** One ordered piece of message content. Every vendor block maps to exactly one of these. */
public sealed interface ContentBlock {

    record Text(String text, CacheMarker cache) implements ContentBlock {
        public Text(String text) { this(text, null); }
        public boolean isBlank() { return text == null || text.isBlank(); }
    }

    /**
     * Image, document or audio, carried either inline ({@code data}, base64) or by reference
     * ({@code url}, or a vendor-scoped {@code fileId}). {@code mediaType} may be null for a URL.
     */
    record Media(MediaKind kind, String mediaType, String data, String url, String fileId, String filename,
                 CacheMarker cache) implements ContentBlock {
        public static Media base64(MediaKind kind, String mediaType, String data) {
            return new Media(kind, mediaType, data, null, null, null, null);
        }
        public static Media url(MediaKind kind, String mediaType, String url) {
            return new Media(kind, mediaType, null, url, null, null, null);
        }
        public boolean isUrl() { return url != null; }
        public Media withBytes(String mediaType, String base64) {
            return new Media(kind, mediaType, base64, null, null, filename, cache);
        }
    }

    /**
     * A tool call. {@code arguments} is the raw JSON text exactly as produced (it may be invalid when the
     * model was cut off); {@code thoughtSignature} is the Gemini signature carried on the functionCall part.
     */
    record ToolUse(String id, String name, String arguments, String thoughtSignature, CacheMarker cache)
            implements ContentBlock {
        public ToolUse(String id, String name, String arguments) { this(id, name, arguments, null, null); }
    }

    record ToolResult(String toolUseId, List<ContentBlock> content, boolean isError, CacheMarker cache)
            implements ContentBlock {
        public ToolResult { content = List.copyOf(content); }
    }

    /** Visible reasoning. {@code signature} is opaque and only replayable to {@code origin}. */
    record Thinking(String text, String signature, SignatureOrigin origin) implements ContentBlock { }

    /** Anthropic's encrypted reasoning. */
    record RedactedThinking(String data) implements ContentBlock { }

    /**
     * A vendor block with no cross-vendor meaning (server tool calls, search results, code execution),
     * kept verbatim so the same vendor can receive it again; other vendors drop it with a warning.
     */
    record VendorBlock(String vendor, ObjectNode raw) implements ContentBlock { }
}
