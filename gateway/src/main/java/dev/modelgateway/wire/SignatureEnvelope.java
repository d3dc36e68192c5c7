package dev.modelgateway.wire;

import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;

/**
 * How reasoning signatures ride through client protocols that only have Anthropic's {@code signature} string
 * (messages thinking blocks, chat {@code thinking_blocks}). Anthropic signatures travel verbatim, so a client
 * that replays them to Claude directly still works. Gemini signatures get a prefix, following gproxy's
 * pattern, so they are never sent to the wrong vendor:
 * <ul>
 * <li>{@code gemini:<sig>} — the signature of a Gemini thought part; a bare {@code gemini:} marks a thought
 *     summary Gemini did not sign, so that it is neither taken for another vendor's reasoning nor replayed;</li>
 * <li>{@code gemini-call:<sig>} — a signature Gemini put on the following functionCall part; carried by an
 *     otherwise empty thinking block placed right before the tool_use.</li>
 * <li>{@code gemini-text:<sig>} — a signature Gemini put on the following text part; carried by an otherwise
 *     empty thinking block placed right before the text, because vendor A never ends a message with thinking
 *     after text and clients (Claude Code, Codex) show only the last block.</li>
 * </ul>
 * An empty signature marks unsigned reasoning (Qwen reasoning_content).
 *
 * <p>The Responses protocol differs in one way: its {@code encrypted_content} slot also holds vendor B's own opaque
 * reasoning, unprefixed, when a stateless client (Codex) replays a conversation it had with vendor B. So there vendor
 * A's signatures are sealed too, as {@code anthropic:<signature>} ({@link #sealForResponses}), and unprefixed content
 * is vendor B's ({@link #openFromResponses}): only vendor B can read it.
 */
public final class SignatureEnvelope {
    /** Responses only: vendor A's signature in a reasoning item's {@code encrypted_content}. */
    public static final String ANTHROPIC = "anthropic:";
    public static final String GEMINI = "gemini:";
    public static final String GEMINI_CALL = "gemini-call:";
    public static final String GEMINI_TEXT = "gemini-text:";

    private SignatureEnvelope() { }

    /**
     * @param forNextCall the signature belongs on the functionCall part of the tool_use that follows
     * @param forNextText the signature belongs on the text part of the text that follows
     */
    public record Opened(SignatureOrigin origin, String signature, boolean forNextCall, boolean forNextText) { }

    public static String seal(SignatureOrigin origin, String signature) {
        if (origin == null) return "";
        return switch (origin) {
            case ANTHROPIC -> signature == null ? "" : signature;
            case GEMINI -> GEMINI + (signature == null ? "" : signature);
            case NONE -> "";
        };
    }

    /** The sealed signature for a Responses reasoning item's {@code encrypted_content}: vendor A's gets its prefix. */
    public static String sealForResponses(SignatureOrigin origin, String signature) {
        if (origin == SignatureOrigin.ANTHROPIC && signature != null && !signature.isEmpty()) return ANTHROPIC + signature;
        return seal(origin, signature);
    }

    public static String sealCall(String geminiSignature) {
        return GEMINI_CALL + geminiSignature;
    }

    public static String sealText(String geminiSignature) {
        return GEMINI_TEXT + geminiSignature;
    }

    public static Opened open(String sealed) {
        if (sealed == null || sealed.isEmpty()) return new Opened(SignatureOrigin.NONE, null, false, false);
        if (sealed.startsWith(GEMINI_CALL)) {
            return new Opened(SignatureOrigin.GEMINI, sealed.substring(GEMINI_CALL.length()), true, false);
        }
        if (sealed.startsWith(GEMINI_TEXT)) {
            return new Opened(SignatureOrigin.GEMINI, sealed.substring(GEMINI_TEXT.length()), false, true);
        }
        if (sealed.startsWith(GEMINI)) {
            String signature = sealed.substring(GEMINI.length());
            return new Opened(SignatureOrigin.GEMINI, signature.isEmpty() ? null : signature, false, false);
        }
        return new Opened(SignatureOrigin.ANTHROPIC, sealed, false, false);
    }

    /**
     * Opens a Responses reasoning item's {@code encrypted_content}. Unprefixed content is vendor B's own reasoning,
     * which no other vendor can verify: it opens as unsigned, so only the item's summary travels on.
     */
    public static Opened openFromResponses(String sealed) {
        if (sealed != null && sealed.startsWith(ANTHROPIC)) {
            String signature = sealed.substring(ANTHROPIC.length());
            return new Opened(signature.isEmpty() ? SignatureOrigin.NONE : SignatureOrigin.ANTHROPIC,
                    signature.isEmpty() ? null : signature, false, false);
        }
        if (!isGatewaySealed(sealed)) return new Opened(SignatureOrigin.NONE, null, false, false);
        return open(sealed);
    }

    /** Whether a Responses {@code encrypted_content} carries one of the gateway's seals, so vendor B never minted it. */
    public static boolean isGatewaySealed(String encryptedContent) {
        return encryptedContent != null && (encryptedContent.startsWith(ANTHROPIC) || encryptedContent.startsWith(GEMINI)
                || encryptedContent.startsWith(GEMINI_CALL) || encryptedContent.startsWith(GEMINI_TEXT));
    }

    /**
     * Whether a sealed signature can be replayed to vendor A: only its own signatures, which travel verbatim.
     * The gateway's prefixes, and the empty string of unsigned reasoning, mark thinking vendor A never signed.
     */
    public static boolean isVendorA(String sealed) {
        return open(sealed).origin() == SignatureOrigin.ANTHROPIC;
    }

    /**
     * Whether canonical block {@code b} is the signature Gemini put on the text block just before it: the
     * canonical form (decoders produce it, the Gemini encoder folds it back onto that text part) is an empty
     * Gemini-signed thinking block right after the text.
     */
    public static boolean isTextSignature(ContentBlock previous, ContentBlock b) {
        return previous instanceof ContentBlock.Text && b instanceof ContentBlock.Thinking t && t.text().isEmpty()
                && t.origin() == SignatureOrigin.GEMINI && t.signature() != null;
    }
}
