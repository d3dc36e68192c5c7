/**
 * Chat completions both ways: the caller's chat protocol and vendor B (and D) upstream, with dialects, usage,
 * finish reasons, errors, the native tap and the series-6 sampling rules of docs/contract.md §2.5.
 *
 * <p>May import wire (ports), canonical, catalogue, config, error, json, sse; no other wire format. Pure.
 */
package dev.modelgateway.wire.openai.chat;
