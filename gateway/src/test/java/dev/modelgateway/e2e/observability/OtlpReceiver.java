package dev.modelgateway.e2e.observability;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A trace collector for the tests: OTLP over HTTP/protobuf ({@code POST /v1/traces}) and over gRPC (the
 * {@code TraceService/Export} method, HTTP/2 without TLS), both decoded with the protocol's own classes
 * (opentelemetry-proto), the spans kept in arrival order.
 */
final class OtlpReceiver implements AutoCloseable {
    static final String GRPC_PATH = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";

    private final HttpServer server;
    final List<Span> spans = new CopyOnWriteArrayList<>();
    final List<String> contentTypes = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start(Vertx vertx) {
        OtlpReceiver[] self = new OtlpReceiver[1];
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(true))
                .requestHandler(req -> req.body().onSuccess(body -> {
                    OtlpReceiver r = self[0];
                    r.contentTypes.add(req.getHeader("content-type"));
                    try {
                        if (req.path().equals("/v1/traces")) {
                            r.add(ExportTraceServiceRequest.parseFrom(body.getBytes()));
                            req.response().putHeader("content-type", "application/x-protobuf")
                                    .end(Buffer.buffer(ExportTraceServiceResponse.getDefaultInstance().toByteArray()));
                        } else if (req.path().equals(GRPC_PATH)) {
                            // gRPC message framing: 1 byte compressed flag, 4 bytes length, then the message
                            int length = body.getInt(1);
                            byte[] message = body.getBytes(5, 5 + length);
                            if (body.getByte(0) == 1) {
                                message = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(message)).readAllBytes();
                            }
                            r.add(ExportTraceServiceRequest.parseFrom(message));
                            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                            Buffer framed = Buffer.buffer().appendByte((byte) 0).appendInt(answer.length).appendBytes(answer);
                            req.response().putHeader("content-type", "application/grpc").putTrailer("grpc-status", "0")
                                    .end(framed);
                        } else {
                            req.response().setStatusCode(404).end();
                        }
                    } catch (Exception e) {
                        req.response().setStatusCode(400).end(e.toString());
                    }
                }));
        self[0] = new OtlpReceiver(server.listen(0, "127.0.0.1").await());
        return self[0];
    }

    private void add(ExportTraceServiceRequest request) {
        request.getResourceSpansList().forEach(rs -> rs.getScopeSpansList().forEach(ss -> spans.addAll(ss.getSpansList())));
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    List<Span> trace(String traceId) {
        return spans.stream().filter(s -> hex(s.getTraceId().toByteArray()).equals(traceId)).toList();
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static String attr(Span span, String key) {
        for (KeyValue kv : span.getAttributesList()) {
            if (kv.getKey().equals(key)) return value(kv.getValue());
        }
        return null;
    }

    private static String value(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case ARRAY_VALUE -> v.getArrayValue().getValuesList().stream().map(OtlpReceiver::value).toList().toString();
            default -> v.toString();
        };
    }

    @Override
    public void close() {
        server.close().await();
    }
}
