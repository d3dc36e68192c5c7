/**
 * The Responses API: the caller's protocol (decode, encode, stream encode, item ids, errors, usage), the
 * native tap, and the platform's Responses rules (docs/contract.md §1.5, §2.5).
 *
 * <p>May import wire (ports), wire/openai/chat (vendor B's error shape), canonical, catalogue, config, error,
 * json, sse. Pure.
 */
package dev.modelgateway.wire.openai.responses;
