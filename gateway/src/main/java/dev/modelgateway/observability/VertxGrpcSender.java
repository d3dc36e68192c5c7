package dev.modelgateway.observability;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.GrpcResponse;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.opentelemetry.sdk.common.export.MessageWriter;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.function.Consumer;

/**
 * One OTLP gRPC channel: unary calls over HTTP/2 (prior knowledge in cleartext, ALPN over TLS with the JVM's trust
 * store), each message framed as gRPC's wire format says (a compressed flag, a 4-byte length, the message), the
 * status read from the {@code grpc-status} trailer (or header, for a trailers-only answer). Its own Vert.x instance
 * (one event loop) keeps exports off the gateway's loops. Not supported: a custom CA or client certificate
 * ({@code OTEL_EXPORTER_OTLP_CERTIFICATE}…) and the exporter's retry policy; use {@code http/protobuf} for those.
 */
final class VertxGrpcSender implements GrpcSender {
    private final GrpcSenderConfig config;
    private final Vertx vertx;
    private final HttpClient client;
    private final URI endpoint;

    VertxGrpcSender(GrpcSenderConfig config) {
        this.config = config;
        this.endpoint = config.getEndpoint();
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1).setInternalBlockingPoolSize(1));
        boolean ssl = "https".equalsIgnoreCase(endpoint.getScheme());
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false)
                .setSsl(ssl)
                .setUseAlpn(ssl)
                .setConnectTimeout((int) Math.max(1, config.getConnectTimeout().toMillis())));
    }

    @Override
    public void send(MessageWriter writer, Consumer<GrpcResponse> onResponse, Consumer<Throwable> onError) {
        Buffer framed;
        String encoding = config.getCompressor() == null ? null : config.getCompressor().getEncoding();
        try {
            ByteArrayOutputStream message = new ByteArrayOutputStream(Math.max(32, writer.getContentLength()));
            if (encoding != null) {
                try (OutputStream compressed = config.getCompressor().compress(message)) {
                    writer.writeMessage(compressed);
                }
            } else {
                writer.writeMessage(message);
            }
            byte[] bytes = message.toByteArray();
            framed = Buffer.buffer(bytes.length + 5).appendByte((byte) (encoding != null ? 1 : 0)).appendInt(bytes.length).appendBytes(bytes);
        } catch (IOException e) {
            onError.accept(e);
            return;
        }
        boolean ssl = "https".equalsIgnoreCase(endpoint.getScheme());
        int port = endpoint.getPort() != -1 ? endpoint.getPort() : ssl ? 443 : 80;
        String base = endpoint.getRawPath() == null ? "" : endpoint.getRawPath().replaceAll("/+$", "");
        String method = config.getFullMethodName().startsWith("/") ? config.getFullMethodName() : "/" + config.getFullMethodName();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .set("content-type", "application/grpc")
                .set("te", "trailers")
                .set("grpc-timeout", Math.max(1, config.getTimeout().toMillis()) + "m");
        if (encoding != null) headers.set("grpc-encoding", encoding);
        if (config.getHeadersSupplier() != null) config.getHeadersSupplier().get().forEach((k, vs) -> vs.forEach(v -> headers.add(k, v)));
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(endpoint.getHost()).setPort(port)
                .setURI(base + method).setHeaders(headers).setTimeout(Math.max(1, config.getTimeout().toMillis()));
        client.request(options)
                .compose(req -> req.send(framed))
                .compose(resp -> resp.body().map(body -> answer(resp, body)))
                .onSuccess(onResponse::accept)
                .onFailure(onError::accept);
    }

    private static GrpcResponse answer(HttpClientResponse resp, Buffer body) {
        String status = resp.getTrailer("grpc-status");
        if (status == null) status = resp.getHeader("grpc-status");
        String description = resp.getTrailer("grpc-message");
        if (description == null) description = resp.getHeader("grpc-message");
        GrpcStatusCode code = status == null ? (resp.statusCode() == 200 ? GrpcStatusCode.UNKNOWN : GrpcStatusCode.UNAVAILABLE)
                : code(status);
        byte[] message = body.length() >= 5 ? body.getBytes(5, body.length()) : new byte[0];
        String why = description != null ? description : "HTTP " + resp.statusCode();
        return new Answer(code, why, message);
    }

    private static GrpcStatusCode code(String status) {
        try {
            return GrpcStatusCode.fromValue(Integer.parseInt(status.trim()));
        } catch (NumberFormatException e) {
            return GrpcStatusCode.UNKNOWN;
        }
    }

    private record Answer(GrpcStatusCode getStatusCode, String getStatusDescription, byte[] getResponseMessage)
            implements GrpcResponse {
    }

    @Override
    public CompletableResultCode shutdown() {
        CompletableResultCode done = new CompletableResultCode();
        client.close().eventually(vertx::close).onComplete(ar -> done.succeed());
        return done;
    }
}
