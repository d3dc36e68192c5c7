package dev.modelgateway.upstream;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * multipart/form-data bodies, read from callers (image edits, transcriptions) and written to vendors.
 * Parts are held in memory: bodies are bounded by the router's body limit.
 */
public final class MultipartForm {
    /** One form field; {@code filename} is null for plain fields. */
    public record Part(String name, String filename, String contentType, byte[] data) {
        public static Part field(String name, String value) {
            return new Part(name, null, null, value.getBytes(StandardCharsets.UTF_8));
        }

        public String text() {
            return new String(data, StandardCharsets.UTF_8);
        }
    }

    /** A body ready to send, with the content-type header that names its boundary. */
    public record Encoded(String contentType, Buffer body) { }

    private MultipartForm() {
    }

    /** The parts, or null when the content type is not multipart/form-data with a boundary. */
    public static List<Part> parse(String contentType, Buffer body) {
        if (body == null || contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) return null;
        int b = contentType.toLowerCase(Locale.ROOT).indexOf("boundary=");
        if (b < 0) return null;
        String boundary = contentType.substring(b + 9).split(";")[0].trim();
        if (boundary.length() > 1 && boundary.startsWith("\"") && boundary.endsWith("\"")) {
            boundary = boundary.substring(1, boundary.length() - 1);
        }
        // ISO-8859-1 maps bytes one to one onto chars, so string offsets are byte offsets.
        String s = body.toString(StandardCharsets.ISO_8859_1);
        String delimiter = "--" + boundary;
        List<Part> parts = new ArrayList<>();
        int at = s.indexOf(delimiter);
        while (at >= 0) {
            int start = at + delimiter.length();
            if (s.startsWith("--", start)) break;
            int headersEnd = s.indexOf("\r\n\r\n", start);
            if (headersEnd < 0) break;
            int next = s.indexOf("\r\n" + delimiter, headersEnd + 4);
            if (next < 0) break;
            String name = null, filename = null, type = null;
            for (String line : s.substring(start, headersEnd).split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-disposition:")) {
                    name = param(line, "name");
                    filename = param(line, "filename");
                } else if (lower.startsWith("content-type:")) {
                    type = line.substring(13).trim();
                }
            }
            byte[] data = s.substring(headersEnd + 4, next).getBytes(StandardCharsets.ISO_8859_1);
            if (name != null) {
                if (filename != null) filename = new String(filename.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
                parts.add(new Part(name, filename, type, data));
            }
            at = next + 2;
        }
        return parts;
    }

    private static String param(String header, String key) {
        String lower = header.toLowerCase(Locale.ROOT);
        int i = 0;
        while ((i = lower.indexOf(key + "=", i)) >= 0) {
            char before = i == 0 ? ' ' : lower.charAt(i - 1);
            if (before == ';' || before == ' ') {
                int v = i + key.length() + 1;
                if (v < header.length() && header.charAt(v) == '"') {
                    int end = header.indexOf('"', v + 1);
                    return end < 0 ? header.substring(v + 1) : header.substring(v + 1, end);
                }
                int end = header.indexOf(';', v);
                return (end < 0 ? header.substring(v) : header.substring(v, end)).trim();
            }
            i += key.length();
        }
        return null;
    }

    public static Part first(List<Part> parts, String... names) {
        for (Part p : parts) for (String n : names) if (p.name().equals(n)) return p;
        return null;
    }

    public static Encoded encode(List<Part> parts) {
        String boundary = "gateway-" + UUID.randomUUID();
        Buffer out = Buffer.buffer();
        for (Part p : parts) {
            out.appendString("--" + boundary + "\r\n");
            out.appendString("Content-Disposition: form-data; name=\"" + p.name() + "\"");
            if (p.filename() != null) out.appendString("; filename=\"" + p.filename().replace("\"", "") + "\"", "UTF-8");
            out.appendString("\r\n");
            if (p.contentType() != null) out.appendString("Content-Type: " + p.contentType() + "\r\n");
            out.appendString("\r\n").appendBytes(p.data()).appendString("\r\n");
        }
        out.appendString("--" + boundary + "--\r\n");
        return new Encoded("multipart/form-data; boundary=" + boundary, out);
    }
}
