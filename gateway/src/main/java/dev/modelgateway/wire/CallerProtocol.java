package dev.modelgateway.wire;

import dev.modelgateway.config.Vendor;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.anthropic.MessagesNative;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.openai.chat.ChatNative;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import dev.modelgateway.wire.openai.responses.ResponsesNative;

/** The protocol a caller speaks, and which vendors speak it natively (no translation needed). */
public enum CallerProtocol {
    CHAT(new ChatInbound(), new ChatNative()),
    MESSAGES(new MessagesInbound(), new MessagesNative()),
    /** Calls normally carry their own {@link ResponsesInbound} (see the responses endpoint). */
    RESPONSES(new ResponsesInbound(), new ResponsesNative());

    private final InboundCodec codec;
    private final NativeFormat nativeFormat;

    CallerProtocol(InboundCodec codec, NativeFormat nativeFormat) {
        this.codec = codec;
        this.nativeFormat = nativeFormat;
    }

    /** How the vendors that speak this protocol natively are called (see {@link #nativeTo}). */
    public NativeFormat nativeFormat() {
        return nativeFormat;
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
