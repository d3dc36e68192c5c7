/**
 * Bedrock's Converse API, the model-agnostic one (docs/clouds.md, "Converse"): canonical requests to a Converse body
 * ({@code POST /model/{modelId}/converse} and {@code /converse-stream}), Converse answers and ConverseStream events
 * back to canonical, its usage (cache reads and writes apart), stop reasons and errors. What a deployment's model
 * can take (cache points, thinking modes, system entries in the conversation) comes from its declared
 * {@link dev.modelgateway.config.Capabilities}, never from its id.
 *
 * <p>ConverseStream's binary event stream is turned into SSE events before the stream decoder sees them (the event
 * name is the Converse event type, the data its JSON payload): the decoding of AWS frames lives in the transport.
 *
 * <p>May import wire (ports), canonical, catalogue, config, error, json, sse; no other wire format. Pure.
 */
package dev.modelgateway.wire.converse;
