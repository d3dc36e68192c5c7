/**
 * Vendor B's media operations (embeddings, also for vendor D's compatible mode; images; speech; transcriptions;
 * the realtime connection) and the shapes the gateway reshapes or reads: embedding vectors (floats or base64),
 * realtime usage events.
 *
 * <p>May import wire (ports), canonical, config, error, json; no other wire format. Pure.
 */
package dev.modelgateway.wire.openai.media;
