package dev.modelgateway.canonical;

/**
 * Which vendor minted a reasoning signature. A signature is only valid on the vendor that issued it,
 * so codecs drop reasoning whose origin is not their own.
 */
public enum SignatureOrigin {
    /** Anthropic thinking/redacted_thinking (also valid on Bedrock/Vertex Claude). */
    ANTHROPIC,
    /** Gemini thoughtSignature. */
    GEMINI,
    /** Reasoning text without any signature (Qwen/DeepSeek reasoning_content, OpenAI-compatible servers). */
    NONE
}
