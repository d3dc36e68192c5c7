package dev.modelgateway.wire;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    /** The bytes the parts hold. */
    public static long size(List<Part> parts) {
        long bytes = 0;
        for (Part p : parts) bytes += p.data().length;
        return bytes;
    }

    /** {@code parts} in their order, with the {@code model} field's value replaced by {@code model}. */
    public static List<Part> withModel(List<Part> parts, String model) {
        List<Part> out = new ArrayList<>(parts.size());
        for (Part p : parts) out.add(p.name().equals("model") ? Part.field("model", model) : p);
        return out;
    }

    /**
     * The parts, or null when the content type is not multipart/form-data with a boundary. A part name,
     * filename or content type with a character that could end a header parameter or line ({@code "}, CR, LF,
     * NUL; a backslash in a name) is the caller's 400: the gateway re-encodes every part for the vendor, and
     * the vendor must see the same fields the gateway checked and billed.
     */
    public static List<Part> parse(String contentType, Buffer body) {
        if (body == null || contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) return null;
        String boundary = headerParams(contentType).get("boundary");
        if (boundary == null || boundary.isEmpty()) return null;
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
                    Map<String, String> params = headerParams(line.substring(20));
                    name = params.get("name");
                    filename = params.get("filename");
                } else if (lower.startsWith("content-type:")) {
                    type = line.substring(13).trim();
                }
            }
            byte[] data = s.substring(headersEnd + 4, next).getBytes(StandardCharsets.ISO_8859_1);
            if (name != null) {
                name = utf8(name);
                if (filename != null) filename = utf8(filename);
                refuseUnsafe(name, filename, type);
                parts.add(new Part(name, filename, type, data));
            }
            at = next + 2;
        }
        return parts;
    }

    private static String utf8(String latin1) {
        return new String(latin1.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static void refuseUnsafe(String name, String filename, String type) {
        if (unsafe(name) || name.indexOf('\\') >= 0) {
            throw GatewayException.invalid(null, "Invalid multipart part name " + Json.quoted(name)
                    + ": part names must not contain '\"', '\\', CR, LF or NUL.");
        }
        if (filename != null && unsafe(filename)) {
            throw GatewayException.invalid(name, "Invalid filename " + Json.quoted(filename) + " in the part '" + name
                    + "': filenames must not contain '\"', CR, LF or NUL.");
        }
        if (type != null && (unsafe(type) || hasControl(type))) {
            throw GatewayException.invalid(name, "Invalid Content-Type in the part '" + name + "'.");
        }
    }

    private static boolean unsafe(String v) {
        return v.indexOf('"') >= 0 || v.indexOf('\r') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\0') >= 0;
    }

    private static boolean hasControl(String v) {
        for (int i = 0; i < v.length(); i++) if (v.charAt(i) < 0x20 && v.charAt(i) != '\t' || v.charAt(i) == 0x7f) return true;
        return false;
    }

    /**
     * The {@code ; key=value} parameters of a header value (keys lower-cased, the first of each kept),
     * quoted strings read whole, so a {@code name=} inside a quoted filename is not a parameter.
     */
    static Map<String, String> headerParams(String header) {
        Map<String, String> out = new HashMap<>();
        int i = header.indexOf(';');
        int n = header.length();
        while (i >= 0 && i < n) {
            i++; // past ';'
            while (i < n && (header.charAt(i) == ' ' || header.charAt(i) == '\t')) i++;
            int eq = i;
            while (eq < n && header.charAt(eq) != '=' && header.charAt(eq) != ';') eq++;
            String key = header.substring(i, eq).trim().toLowerCase(Locale.ROOT);
            if (eq >= n || header.charAt(eq) == ';') {
                i = eq < n ? eq : -1;
                continue;
            }
            int v = eq + 1;
            while (v < n && (header.charAt(v) == ' ' || header.charAt(v) == '\t')) v++;
            String value;
            int after;
            if (v < n && header.charAt(v) == '"') {
                // browsers send filenames verbatim between quotes (WHATWG), backslashes included: no escapes
                int close = header.indexOf('"', v + 1);
                value = close < 0 ? header.substring(v + 1) : header.substring(v + 1, close);
                after = close < 0 ? n : header.indexOf(';', close + 1);
            } else {
                int semi = header.indexOf(';', v);
                value = (semi < 0 ? header.substring(v) : header.substring(v, semi)).trim();
                after = semi;
            }
            if (!key.isEmpty()) out.putIfAbsent(key, value);
            i = after;
        }
        return out;
    }

    /**
     * The one part named {@code name}, or null; a field the gateway reads (model, format, stream…) sent twice
     * is the caller's 400, since the gateway would act on one copy and the vendor might take the other.
     */
    public static Part single(List<Part> parts, String name) {
        Part found = null;
        for (Part p : parts) {
            if (!p.name().equals(name)) continue;
            if (found != null) throw GatewayException.invalid(name, "'" + name + "' appears more than once in the form; send it once.");
            found = p;
        }
        return found;
    }

    public static Part first(List<Part> parts, String... names) {
        for (Part p : parts) for (String n : names) if (p.name().equals(n)) return p;
        return null;
    }

    /** The form for a vendor, in one buffer of its final size (a growing one copies a large file again at each doubling). */
    public static Encoded encode(List<Part> parts) {
        String boundary = "gateway-" + UUID.randomUUID();
        List<byte[]> heads = new ArrayList<>(parts.size());
        int size = 0;
        for (Part p : parts) {
            StringBuilder head = new StringBuilder("--").append(boundary).append("\r\n")
                    .append("Content-Disposition: form-data; name=\"").append(escape(p.name())).append('"');
            if (p.filename() != null) head.append("; filename=\"").append(escape(p.filename())).append('"');
            head.append("\r\n");
            if (p.contentType() != null && !unsafe(p.contentType()) && !hasControl(p.contentType())) {
                head.append("Content-Type: ").append(p.contentType()).append("\r\n");
            }
            byte[] bytes = head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
            heads.add(bytes);
            size += bytes.length + p.data().length + 2;
        }
        byte[] end = ("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        Buffer out = Buffer.buffer(size + end.length);
        for (int i = 0; i < parts.size(); i++) out.appendBytes(heads.get(i)).appendBytes(parts.get(i).data()).appendString("\r\n");
        out.appendBytes(end);
        return new Encoded("multipart/form-data; boundary=" + boundary, out);
    }

    /**
     * A name or filename inside a quoted header parameter, percent-encoding what could end it (RFC 7578
     * section 4.2, as browsers do: {@code "} as %22, CR as %0D, LF as %0A; also NUL and backslash), so that
     * every vendor's parser reads back the one value the gateway meant.
     */
    static String escape(String v) {
        StringBuilder b = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> b.append("%22");
                case '\r' -> b.append("%0D");
                case '\n' -> b.append("%0A");
                case '\0' -> b.append("%00");
                case '\\' -> b.append("%5C");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
