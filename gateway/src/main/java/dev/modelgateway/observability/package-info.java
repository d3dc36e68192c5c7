/**
 * What an operator sees of the gateway (docs/observability.md): Prometheus metrics ({@link GatewayMetrics}), OpenTelemetry
 * traces ({@link Tracing}, {@link RequestTrace}, {@link AttemptSpan}), the one redaction layer every log line and error
 * body passes ({@link Redaction}), and the settings ({@link ObservabilityConfig}).
 *
 * <p>May import canonical, config, error, json and the libraries (Vert.x core, Micrometer, OpenTelemetry, Logback);
 * used by server, endpoint, services, call, upstream and http. Runs on the event loop; never blocks (exports run on
 * the SDK's own threads, scrapes on a worker thread).
 */
package dev.modelgateway.observability;
