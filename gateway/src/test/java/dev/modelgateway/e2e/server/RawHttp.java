package dev.modelgateway.e2e.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** One HTTP/1.1 connection driven by hand: heads and bodies sent when the test says, responses read raw. */
final class RawHttp implements AutoCloseable {
    final Socket socket;
    private final InputStream in;

    record Response(int status, Map<String, String> headers, String body) {
    }

    RawHttp(int port) {
        try {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            in = socket.getInputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    RawHttp send(String text) {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) {
        try {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A POST head (with {@code Content-Length}) and no body yet. */
    RawHttp head(String path, String auth, long contentLength, String contentType) {
        return send("POST " + path + " HTTP/1.1\r\nHost: gw\r\n" + (auth == null ? "" : "Authorization: " + auth + "\r\n")
                + "Content-Type: " + contentType + "\r\nContent-Length: " + contentLength + "\r\n\r\n");
    }

    /** Reads one response (status, headers, a Content-Length body), failing after {@code timeoutMs}. */
    Response read(int timeoutMs) {
        try {
            socket.setSoTimeout(timeoutMs);
            String head = readHead();
            String[] lines = head.split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int c = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            byte[] body = in.readNBytes(length);
            return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when the server closed the connection within {@code timeoutMs} (end of stream or reset). */
    boolean closedWithin(int timeoutMs) {
        try {
            socket.setSoTimeout(timeoutMs);
            while (true) {
                if (in.read() < 0) return true;
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) throw new IOException("connection closed before a response head; got '" + out + "'");
            out.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : 0;
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }
}
