/**
 * Vendor D (Qwen through DashScope's OpenAI-compatible mode): the chat-completions codec with the Qwen
 * dialect (enable_thinking, reasoning_content, cache_control on parts).
 *
 * <p>May import wire (ports) and wire/openai/chat, whose codec it reuses with ChatDialect.QWEN. Pure.
 */
package dev.modelgateway.wire.qwen;
