package dev.modelgateway.wire;

import dev.modelgateway.config.Vendor;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;

/** The protocol a caller speaks, and which vendors speak it natively (no translation needed). */
public enum CallerProtocol {
    CHAT(new ChatInbound()),
    MESSAGES(new MessagesInbound()),
    /** Calls normally carry their own {@link ResponsesInbound} (see the responses endpoint). */
    RESPONSES(new ResponsesInbound());

    private final InboundCodec codec;

    CallerProtocol(InboundCodec codec) {
        this.codec = codec;
    }

    public InboundCodec codec() {
        return codec;
    }

    /** Vendor B and vendor D's compatible mode speak chat completions; vendor A speaks messages; only B speaks Responses. */
    public boolean nativeTo(Vendor vendor) {
        return switch (this) {
            case CHAT -> vendor == Vendor.OPENAI || vendor == Vendor.DASHSCOPE;
            case MESSAGES -> vendor == Vendor.ANTHROPIC;
            case RESPONSES -> vendor == Vendor.OPENAI;
        };
    }
}
