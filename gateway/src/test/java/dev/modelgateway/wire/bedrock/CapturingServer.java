package dev.modelgateway.wire.bedrock;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local HTTP server that records each request as it came (raw path, headers, body) and answers a fixed JSON body:
 * where the official SDKs are pointed to see what they send.
 */
final class CapturingServer implements AutoCloseable {
    record Captured(String method, String rawPath, Map<String, List<String>> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    final List<Captured> requests = new CopyOnWriteArrayList<>();

    CapturingServer(String answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.add(new Captured(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    Map.copyOf(exchange.getRequestHeaders()), exchange.getRequestBody().readAllBytes()));
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    Captured last() {
        return requests.getLast();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
