package dev.modelgateway.wire;

import dev.modelgateway.canonical.SignatureOrigin;

/**
 * How reasoning signatures ride through client protocols that only have Anthropic's {@code signature} string
 * (messages thinking blocks, chat {@code thinking_blocks}). Anthropic signatures travel verbatim, so a client
 * that replays them to Claude directly still works. Gemini signatures get a prefix, following gproxy's
 * pattern, so they are never sent to the wrong vendor:
 * <ul>
 * <li>{@code gemini:<sig>} — the signature of a Gemini thought part;</li>
 * <li>{@code gemini-call:<sig>} — a signature Gemini put on the following functionCall part; carried by an
 *     otherwise empty thinking block placed right before the tool_use.</li>
 * </ul>
 * An empty signature marks unsigned reasoning (Qwen reasoning_content).
 */
public final class SignatureEnvelope {
    public static final String GEMINI = "gemini:";
    public static final String GEMINI_CALL = "gemini-call:";

    private SignatureEnvelope() { }

    public record Opened(SignatureOrigin origin, String signature, boolean forNextCall) { }

    public static String seal(SignatureOrigin origin, String signature) {
        if (signature == null || signature.isEmpty() || origin == null) return "";
        return switch (origin) {
            case ANTHROPIC -> signature;
            case GEMINI -> GEMINI + signature;
            case NONE -> "";
        };
    }

    public static String sealCall(String geminiSignature) {
        return GEMINI_CALL + geminiSignature;
    }

    public static Opened open(String sealed) {
        if (sealed == null || sealed.isEmpty()) return new Opened(SignatureOrigin.NONE, null, false);
        if (sealed.startsWith(GEMINI_CALL)) {
            return new Opened(SignatureOrigin.GEMINI, sealed.substring(GEMINI_CALL.length()), true);
        }
        if (sealed.startsWith(GEMINI)) return new Opened(SignatureOrigin.GEMINI, sealed.substring(GEMINI.length()), false);
        return new Opened(SignatureOrigin.ANTHROPIC, sealed, false);
    }
}
