package dev.modelgateway.api;

import dev.modelgateway.config.Vendor;
import dev.modelgateway.protocol.InboundCodec;
import dev.modelgateway.protocol.chat.ChatInbound;
import dev.modelgateway.protocol.messages.MessagesInbound;

/** The protocol a caller speaks, and which vendors speak it natively (no translation needed). */
public enum InboundProtocol {
    CHAT(new ChatInbound()),
    MESSAGES(new MessagesInbound());

    private final InboundCodec codec;

    InboundProtocol(InboundCodec codec) {
        this.codec = codec;
    }

    public InboundCodec codec() {
        return codec;
    }

    /** Vendor B and vendor D's compatible mode speak chat completions; vendor A speaks messages. */
    public boolean nativeTo(Vendor vendor) {
        return switch (this) {
            case CHAT -> vendor == Vendor.OPENAI || vendor == Vendor.DASHSCOPE;
            case MESSAGES -> vendor == Vendor.ANTHROPIC;
        };
    }
}
