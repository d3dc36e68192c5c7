package dev.modelgateway.wire;

import dev.modelgateway.config.Capabilities;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.converse.ConverseCodec;
import dev.modelgateway.wire.gemini.GeminiCodec;
import dev.modelgateway.wire.openai.chat.OpenAiChatCodec;
import dev.modelgateway.wire.qwen.QwenCodec;

/** The translated path's codec for each vendor; codecs are stateless, so one instance each serves all calls. */
public final class Codecs {
    private static final VendorCodec ANTHROPIC = new AnthropicCodec();
    private static final VendorCodec OPENAI = new OpenAiChatCodec();
    private static final VendorCodec GEMINI = new GeminiCodec();
    private static final VendorCodec QWEN = new QwenCodec();

    private Codecs() {
    }

    public static VendorCodec of(Vendor vendor) {
        return switch (vendor) {
            case ANTHROPIC -> ANTHROPIC;
            case OPENAI -> OPENAI;
            case GEMINI -> GEMINI;
            case DASHSCOPE -> QWEN;
        };
    }

    /**
     * Bedrock's Converse for a deployment ({@code api: converse}): unlike a vendor's codec it depends on what the
     * deployment declares its model takes, so there is one per deployment's capabilities.
     */
    public static VendorCodec converse(Capabilities capabilities) {
        return new ConverseCodec(capabilities);
    }
}
