package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.error.GatewayException;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Canonical content blocks → Converse {@code ContentBlock}s (API reference, "ContentBlock"): one union member per
 * block ({@code text}, {@code image}, {@code document}, {@code toolUse}, {@code toolResult}, {@code reasoningContent}),
 * and a {@code cachePoint} block right after a block the caller marked, when the deployment declares prompt caching.
 * One instance per request (it numbers unnamed documents and collects warnings through {@link Warnings}).
 */
final class ConverseBlocks {
    /** Converse's ImageFormat enum, by media type. */
    private static final Map<String, String> IMAGE_FORMATS = Map.of(
            "image/png", "png", "image/jpeg", "jpeg", "image/jpg", "jpeg", "image/gif", "gif", "image/webp", "webp");
    /** Converse's DocumentFormat enum, by media type. */
    private static final Map<String, String> DOCUMENT_FORMATS = Map.of(
            "application/pdf", "pdf", "text/csv", "csv", "application/msword", "doc",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx",
            "application/vnd.ms-excel", "xls",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx",
            "text/html", "html", "text/plain", "txt", "text/markdown", "md");
    /**
     * DocumentBlock.name: "alphanumeric characters, whitespace characters (no more than one in a row), hyphens,
     * parentheses, and square brackets" (API reference, "DocumentBlock").
     */
    private static final Pattern NAME_REFUSED = Pattern.compile("[^A-Za-z0-9\\s\\-()\\[\\]]");
    /** toolUseId: {@code [a-zA-Z0-9_-]+}, 1 to 64 characters (API reference, "ToolUseBlock"). */
    static final int TOOL_USE_ID_MAX = 64;
    /** The text of a tool result that had none: Converse wants at least one non-blank block. */
    static final String EMPTY_RESULT = "(no content)";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final boolean promptCache;
    private final Warnings warnings;
    private int unnamedDocuments;

    ConverseBlocks(boolean promptCache, Warnings warnings) {
        this.promptCache = promptCache;
        this.warnings = warnings;
    }

    /** Appends the block (and its cache point) to {@code out}; some blocks have no Converse form and add nothing. */
    void add(ContentBlock b, String p, ArrayNode out) {
        switch (b) {
            case ContentBlock.Text t -> {
                if (!t.isBlank()) out.addObject().put("text", t.text());
                cachePoint(t.cache(), out);
            }
            case ContentBlock.Media m -> {
                out.add(media(m, p));
                cachePoint(m.cache(), out);
            }
            case ContentBlock.ToolUse u -> {
                ObjectNode use = out.addObject().putObject("toolUse")
                        .put("toolUseId", ToolCallIds.sanitize(u.id(), TOOL_USE_ID_MAX)).put("name", u.name());
                use.set("input", ToolArguments.toObject(u.arguments()));
                cachePoint(u.cache(), out);
            }
            case ContentBlock.ToolResult r -> {
                ObjectNode result = out.addObject().putObject("toolResult")
                        .put("toolUseId", ToolCallIds.sanitize(r.toolUseId(), TOOL_USE_ID_MAX));
                ArrayNode content = result.putArray("content");
                for (int k = 0; k < r.content().size(); k++) resultContent(r.content().get(k), p + ".content[" + k + "]", content);
                // Converse refuses blank text blocks, in tool results too ("text content blocks must be non-empty")
                if (content.isEmpty()) content.addObject().put("text", EMPTY_RESULT);
                if (r.isError()) result.put("status", "error");
                cachePoint(r.cache(), out);
            }
            case ContentBlock.Thinking t -> {
                // Replayed exactly as the model gave it: a signed block changed or moved wedges the conversation.
                if (t.origin() != SignatureOrigin.ANTHROPIC || t.signature() == null) {
                    warnings.once("reasoning", "reasoning this model did not sign was not replayed to it");
                    return;
                }
                out.addObject().putObject("reasoningContent").putObject("reasoningText")
                        .put("text", t.text()).put("signature", t.signature());
            }
            case ContentBlock.RedactedThinking r -> out.addObject().putObject("reasoningContent").put("redactedContent", r.data());
            case ContentBlock.VendorBlock v -> {
                if (v.vendor().equals(ConverseCodec.VENDOR)) out.add(v.raw());
                else warnings.once("vendor-block", "a " + v.vendor() + "-specific content block was dropped");
            }
        }
    }

    /** ToolResultContentBlock: text, image or document (a tool's text stays text: Converse's json member is an object). */
    private void resultContent(ContentBlock b, String p, ArrayNode out) {
        switch (b) {
            case ContentBlock.Text t -> {
                if (!t.isBlank()) out.addObject().put("text", t.text());
            }
            case ContentBlock.Media m -> out.add(media(m, p));
            default -> warnings.once("tool-result", "a tool result part with no Converse form was dropped");
        }
    }

    private ObjectNode media(ContentBlock.Media m, String p) {
        if (m.fileId() != null) throw GatewayException.invalid(p, "file references are not supported by this model");
        if (m.kind() == MediaKind.AUDIO) throw GatewayException.invalid(p, "audio input is not supported by this model");
        String type = m.mediaType() == null ? "" : m.mediaType().toLowerCase();
        boolean document = m.kind() == MediaKind.DOCUMENT || (!type.isEmpty() && !type.startsWith("image/"));
        ObjectNode block = F.objectNode();
        ObjectNode inner;
        if (document) {
            String format = format(DOCUMENT_FORMATS, type, m.url());
            if (format == null) {
                throw GatewayException.invalid(p, "document type '" + m.mediaType()
                        + "' is not supported (use pdf, csv, doc, docx, xls, xlsx, html, txt or md)");
            }
            inner = block.putObject("document").put("format", format).put("name", documentName(m.filename()));
        } else {
            String format = format(IMAGE_FORMATS, type, m.url());
            if (format == null) {
                throw GatewayException.invalid(p, "image type '" + (m.isUrl() ? m.url() : m.mediaType())
                        + "' is not supported (use png, jpeg, gif or webp)");
            }
            inner = block.putObject("image").put("format", format);
        }
        ObjectNode source = inner.putObject("source");
        // Converse takes bytes or an S3 location only (API reference, "ImageSource"); other URLs were fetched first.
        if (m.isUrl()) source.putObject("s3Location").put("uri", m.url());
        else source.put("bytes", m.data());
        return block;
    }

    /** The Converse format of a media type, or of an S3 object's extension when its type is not given. */
    private static String format(Map<String, String> formats, String type, String url) {
        if (!type.isEmpty() || url == null) return formats.get(type);
        String lower = url.toLowerCase();
        String ext = lower.substring(lower.lastIndexOf('.') + 1);
        return formats.values().contains(ext) ? ext : "jpg".equals(ext) ? "jpeg" : null;
    }

    private String documentName(String filename) {
        String base = filename == null ? "" : filename.replaceFirst("\\.[A-Za-z0-9]{1,5}$", "");
        String name = NAME_REFUSED.matcher(base).replaceAll(" ").trim().replaceAll("\\s+", " ");
        return name.isEmpty() ? "document " + ++unnamedDocuments : name;
    }

    /** A cache point after a marked block; dropped (once, with a warning) when the deployment declares no caching. */
    void cachePoint(CacheMarker marker, ArrayNode out) {
        if (marker == null) return;
        if (!promptCache) {
            warnings.once("cache", "cache markers dropped: this deployment does not declare prompt_cache");
            return;
        }
        ObjectNode point = out.addObject().putObject("cachePoint").put("type", "default");
        // CachePointBlock.ttl takes "5m" and "1h"; absent is the model's default (5 minutes).
        if (marker.ttl() != null) point.put("ttl", marker.ttl());
    }
}
