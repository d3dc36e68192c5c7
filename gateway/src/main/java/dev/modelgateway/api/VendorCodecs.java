package dev.modelgateway.api;

import dev.modelgateway.config.Vendor;
import dev.modelgateway.vendor.VendorCodec;
import dev.modelgateway.vendor.anthropic.AnthropicCodec;
import dev.modelgateway.vendor.gemini.GeminiCodec;
import dev.modelgateway.vendor.openai.OpenAiChatCodec;
import dev.modelgateway.vendor.qwen.QwenCodec;

/** The translated path's codec for each vendor; codecs are stateless, so one instance each serves all calls. */
public final class VendorCodecs {
    private static final VendorCodec ANTHROPIC = new AnthropicCodec();
    private static final VendorCodec OPENAI = new OpenAiChatCodec();
    private static final VendorCodec GEMINI = new GeminiCodec();
    private static final VendorCodec QWEN = new QwenCodec();

    private VendorCodecs() {
    }

    public static VendorCodec of(Vendor vendor) {
        return switch (vendor) {
            case ANTHROPIC -> ANTHROPIC;
            case OPENAI -> OPENAI;
            case GEMINI -> GEMINI;
            case DASHSCOPE -> QWEN;
        };
    }
}
