/**
 * Vendor B's media shapes the gateway reshapes or reads: embedding vectors (floats or base64), realtime usage
 * events.
 *
 * <p>May import wire (ports), canonical, error, json; no other wire format. Pure.
 */
package dev.modelgateway.wire.openai.media;
