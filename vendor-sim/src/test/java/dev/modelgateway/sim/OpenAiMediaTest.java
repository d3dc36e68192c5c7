package dev.modelgateway.sim;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Helpers shared by the OpenAI media endpoint tests. */
abstract class OpenAiMediaTest extends SimTestBase {

    static final String AUTH = "Bearer sim-openai-key";

    static HttpResponse<byte[]> postBytes(String path, String contentType, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).header("authorization", AUTH)
                .header("content-type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Builds multipart/form-data: pairs of (name, value) where a value of byte[] becomes a file part. */
    static byte[] multipart(String boundary, Object... fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < fields.length; i += 2) {
            String name = (String) fields[i];
            out.writeBytes(("--" + boundary + "\r\n").getBytes(StandardCharsets.UTF_8));
            if (fields[i + 1] instanceof byte[] file) {
                out.writeBytes(("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"f.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.writeBytes(file);
            } else {
                out.writeBytes(("Content-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + fields[i + 1]).getBytes(StandardCharsets.UTF_8));
            }
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
