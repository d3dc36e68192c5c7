package dev.modelgateway.wire.qwen;

import dev.modelgateway.wire.openai.chat.ChatDialect;
import dev.modelgateway.wire.openai.chat.OpenAiChatCodec;

/**
 * Qwen through DashScope compatible mode (base URL {@code …/compatible-mode/v1}): the chat-completions wire format
 * with the Qwen dialect ({@link ChatDialect#QWEN}): {@code enable_thinking}/{@code thinking_budget},
 * {@code reasoning_content}, {@code cache_control} on parts and {@code partial} prefill.
 */
public final class QwenCodec extends OpenAiChatCodec {
    public QwenCodec() {
        super(ChatDialect.QWEN);
    }
}
