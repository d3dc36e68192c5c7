/**
 * Vendor C's generateContent and streamGenerateContent, plus its batchEmbedContents and Imagen upscale
 * shapes: request encoder, response and stream decoders, schema conversion, errors, usage, finish reasons.
 *
 * <p>May import wire (ports), canonical, catalogue, config, error, json, sse; no other wire format. Pure.
 */
package dev.modelgateway.wire.gemini;
