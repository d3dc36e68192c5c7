package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.testing.E2e;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A multipart part whose name or filename could close its header parameter must not let the vendor see
 * fields the gateway did not check and bill: such parts are refused, and what the vendor receives is
 * exactly the fields the gateway parsed.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class MultipartInjectionTest {
    static GatewayHarness h;
    static final String BOUNDARY = "test-boundary-7578";
    static final byte[] PNG = Base64.getDecoder().decode(Samples.TINY_PNG);

    /** One part: the raw Content-Disposition parameters after {@code form-data; }, an optional content type, the bytes. */
    static void part(ByteArrayOutputStream out, String disposition, String type, byte[] data) {
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; " + disposition + "\r\n"
                + (type == null ? "" : "Content-Type: " + type + "\r\n") + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(data);
        out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }

    static byte[] edit(String smuggled) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (smuggled != null) part(out, smuggled, null, "vendorB-image-2-pro".getBytes(StandardCharsets.UTF_8));
        part(out, "name=\"model\"", null, "platform/vendorB-image-2".getBytes(StandardCharsets.UTF_8));
        part(out, "name=\"prompt\"", null, "make it blue".getBytes(StandardCharsets.UTF_8));
        part(out, "name=\"image\"; filename=\"C:\\photos\\a b.png\"", "image/png", PNG);
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    static List<MultipartForm.Part> upstreamParts(ReceivedRequest r) {
        String type = r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .findFirst().orElseThrow().getValue();
        return MultipartForm.parse(type, Buffer.buffer(r.body().getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void aPartNameThatClosesItsQuoteIsRefusedAndNothingReachesTheVendor() {
        for (String smuggled : new String[]{"name=model\" x=\"", "name=\"model\\\"", "name=\"a\nb\"", "name=\"model\0\""}) {
            int before = h.sim.received().size();
            HttpResponse<String> r = h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY, edit(smuggled));
            assertThat(r.statusCode()).as(smuggled + ": " + r.body()).isEqualTo(400);
            JsonNode err = Json.parseOrNull(r.body()).path("error");
            assertThat(err.path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(err.path("message").asText()).contains("Invalid multipart part name '");
            assertThat(h.sim.received()).hasSize(before);
        }
        HttpResponse<String> r = h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY, edit("name=model\" x=\""));
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).contains("'model\" x=\"'");
    }

    @Test
    void aFilenameThatClosesItsQuoteIsRefusedNamingThePart() {
        int before = h.sim.received().size();
        HttpResponse<String> r = h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY,
                edit("name=\"image[]\"; filename=a\".png\r\nContent-Type: text/plain"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode err = Json.parseOrNull(r.body()).path("error");
        assertThat(err.path("param").asText()).isEqualTo("image[]");
        assertThat(err.path("message").asText()).contains("filename");
        assertThat(h.sim.received()).hasSize(before);
    }

    @Test
    void aNameInsideAQuotedFilenameIsNotAParameter() {
        // a naive "name=" search finds the one inside the filename and calls this part 'model'
        HttpResponse<String> r = h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY,
                edit("filename=\"x; name=model;\"; name=\"note\""));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<MultipartForm.Part> seen = upstreamParts(h.sim.received().getLast());
        assertThat(seen).extracting(MultipartForm.Part::name).containsExactly("note", "model", "prompt", "image");
        assertThat(seen.get(0).filename()).isEqualTo("x; name=model;");
        assertThat(seen.get(1).text()).isEqualTo("vendorB-image-2");
    }

    @Test
    void theVendorSeesExactlyTheFieldsTheGatewayChecked() {
        HttpResponse<String> r = h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY, edit(null));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ReceivedRequest upstream = h.sim.received().getLast();
        assertThat(upstream.path()).isEqualTo("/openai/v1/images/edits");
        List<MultipartForm.Part> seen = upstreamParts(upstream);
        assertThat(seen).extracting(MultipartForm.Part::name).containsExactly("model", "prompt", "image");
        assertThat(seen.get(0).text()).isEqualTo("vendorB-image-2");
        // a backslash cannot escape the closing quote at the vendor: it goes percent-encoded (RFC 7578 4.2)
        assertThat(seen.get(2).filename()).isEqualTo("C:%5Cphotos%5Ca b.png");
        assertThat(seen.get(2).contentType()).isEqualTo("image/png");
    }

    @Test
    void aFieldTheGatewayReadsSentTwiceIsRefusedNamingIt() {
        int before = h.sim.received().size();
        HttpResponse<String> edit = h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY, edit("name=\"prompt\""));
        assertThat(edit.statusCode()).as(edit.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(edit.body()).at("/error/param").asText()).isEqualTo("prompt");

        // the gateway picks the relay (JSON with usage, or bytes) from response_format: both copies must agree
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        part(out, "name=\"file\"; filename=\"a.wav\"", "audio/wav", "RIFF0000WAVE".getBytes(StandardCharsets.UTF_8));
        part(out, "name=\"model\"", null, "platform/vendorB-transcribe".getBytes(StandardCharsets.UTF_8));
        part(out, "name=\"response_format\"", null, "text".getBytes(StandardCharsets.UTF_8));
        part(out, "name=\"response_format\"", null, "json".getBytes(StandardCharsets.UTF_8));
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> transcription = h.postMultipartAuthed("/api/v1/audio/transcriptions", BOUNDARY, out.toByteArray());
        assertThat(transcription.statusCode()).as(transcription.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(transcription.body()).at("/error/param").asText()).isEqualTo("response_format");
        assertThat(Json.parseOrNull(transcription.body()).at("/error/message").asText()).contains("more than once");
        assertThat(h.sim.received()).hasSize(before);
    }
}
