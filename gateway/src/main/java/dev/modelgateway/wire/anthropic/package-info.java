/**
 * Vendor A's Messages API, both ways: the caller's messages protocol (decode, encode, stream encode, errors)
 * and vendor A upstream (request encoder, response and stream decoders, errors, usage, stop reasons), the
 * native tap, and the thinking rules of docs/contract.md §2.3.
 *
 * <p>May import wire (ports), canonical, catalogue, config, error, json, sse; no other wire format. Pure.
 */
package dev.modelgateway.wire.anthropic;
