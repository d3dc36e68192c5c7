package dev.modelgateway.sim;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A small multipart/form-data reader for the simulator's upload endpoints (images/edits, transcriptions). */
final class Multipart {

    record Part(String name, String filename, String contentType, byte[] data) {
        String text() {
            return new String(data, StandardCharsets.UTF_8);
        }
    }

    private Multipart() {
    }

    /** Returns the parts, or null when the content type is not multipart or has no boundary. */
    static List<Part> parse(String contentType, Buffer body) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) return null;
        int b = contentType.toLowerCase(Locale.ROOT).indexOf("boundary=");
        if (b < 0) return null;
        String boundary = contentType.substring(b + 9).split(";")[0].trim();
        if (boundary.startsWith("\"") && boundary.endsWith("\"")) boundary = boundary.substring(1, boundary.length() - 1);
        // ISO-8859-1 maps bytes 1:1 to chars, so string indices are byte offsets.
        String s = body.toString(StandardCharsets.ISO_8859_1);
        String delim = "--" + boundary;
        List<Part> parts = new ArrayList<>();
        int pos = s.indexOf(delim);
        while (pos >= 0) {
            int start = pos + delim.length();
            if (s.startsWith("--", start)) break;
            int headerStart = s.indexOf("\r\n", start) + 2;
            int headerEnd = s.indexOf("\r\n\r\n", headerStart);
            int next = s.indexOf("\r\n" + delim, headerEnd);
            if (headerStart < 2 || headerEnd < 0 || next < 0) break;
            String name = null, filename = null, type = null;
            for (String line : s.substring(headerStart, headerEnd).split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-disposition:")) {
                    name = param(line, "name");
                    filename = param(line, "filename");
                } else if (lower.startsWith("content-type:")) {
                    type = line.substring(13).trim();
                }
            }
            byte[] data = s.substring(headerEnd + 4, next).getBytes(StandardCharsets.ISO_8859_1);
            parts.add(new Part(name, filename, type, data));
            pos = next + 2;
        }
        return parts;
    }

    private static String param(String header, String key) {
        int i = 0;
        while ((i = header.indexOf(key + "=", i)) >= 0) {
            char before = i == 0 ? ';' : header.charAt(i - 1);
            if (before == ';' || before == ' ') {
                int v = i + key.length() + 1;
                if (v < header.length() && header.charAt(v) == '"') {
                    int end = header.indexOf('"', v + 1);
                    return header.substring(v + 1, end < 0 ? header.length() : end);
                }
                int end = header.indexOf(';', v);
                return header.substring(v, end < 0 ? header.length() : end).trim();
            }
            i++;
        }
        return null;
    }

    static Part first(List<Part> parts, String... names) {
        for (String n : names) for (Part p : parts) if (n.equals(p.name())) return p;
        return null;
    }
}
