package dev.modelgateway.e2e;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A {@code multipart/form-data} body as a client sends one: text fields in order, then one file. */
public final class MultipartForms {
    private MultipartForms() {
    }

    public static byte[] of(String boundary, Map<String, String> fields, String fileField, String fileName, String contentType,
                            byte[] file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        fields.forEach((name, value) -> out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name
                + "\"\r\n\r\n" + value + "\r\n").getBytes(StandardCharsets.UTF_8)));
        out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fileField + "\"; filename=\"" + fileName
                + "\"\r\nContent-Type: " + contentType + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(file);
        out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
