package dev.modelgateway.observability;

import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;

/**
 * OTLP over gRPC ({@code OTEL_EXPORTER_OTLP_PROTOCOL=grpc}) through Vert.x's HTTP/2 client: the OTLP exporter finds
 * this provider through {@code META-INF/services}. The exporter's stock gRPC sender needs OkHttp 5 and Kotlin 2 (or
 * grpc-java), which would clash with the OkHttp 4 of the official SDKs the tests drive; Vert.x is already here.
 */
public final class VertxGrpcSenderProvider implements GrpcSenderProvider {
    @Override
    public GrpcSender createSender(GrpcSenderConfig config) {
        return new VertxGrpcSender(config);
    }
}
