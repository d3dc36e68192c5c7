/**
 * AWS Bedrock Runtime's wire, without I/O: the binary event stream ({@code application/vnd.amazon.eventstream}:
 * {@link dev.modelgateway.wire.bedrock.EventStreamDecoder}, and its conversion to SSE at the transport edge,
 * {@link dev.modelgateway.wire.bedrock.EventStreamSse}), Bedrock's errors ({@code x-amzn-ErrorType}, exception frames),
 * model ids (plain, inference profiles, ARNs) and their path encoding, vendor A's native messages body on InvokeModel
 * ({@link dev.modelgateway.wire.bedrock.BedrockInvoke}), and the CountTokens and embeddings operations
 * (docs/clouds.md, "Bedrock").
 *
 * <p>May import wire (ports), canonical, catalogue, config, error, json, sse, and {@code openai/media} (embeddings are
 * answered in vendor B's shape); no other wire format. Pure.
 */
package dev.modelgateway.wire.bedrock;
