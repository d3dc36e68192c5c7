package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Vendor B's {@code POST /audio/transcriptions}: the caller's multipart form relayed with only {@code model}
 * rewritten. JSON answers go back as JSON with their token usage; text formats and streams are piped with the
 * vendor's content type and carry no usage the gateway reads.
 */
public final class OpenAiTranscriptions {
    private static final String PATH = "/audio/transcriptions";

    private OpenAiTranscriptions() {
    }

    /** @param jsonAnswer the caller asked for a JSON format without {@code stream} */
    public static VendorOperation operation(List<MultipartForm.Part> parts, boolean jsonAnswer) {
        OperationAnswer answer = jsonAnswer
                ? new OperationAnswer.Json(body -> new OperationAnswer.Decoded(body, usage(body)))
                : new OperationAnswer.Bytes(Usage.ZERO);
        return new VendorOperation(upstreamModel -> OperationRequest.form(PATH,
                MultipartForm.encode(MultipartForm.withModel(parts, upstreamModel))), answer, VendorErrors.AS_SENT,
                MultipartForm.size(parts));
    }

    /** A stored transcription task's request: its forwarded form fields, then {@code model} and the audio file. */
    public static OperationRequest task(ObjectNode form, String fileName, String fileType, byte[] audio, String upstreamModel) {
        List<MultipartForm.Part> parts = new ArrayList<>();
        form.properties().forEach(e -> {
            if (e.getValue().isArray()) e.getValue().forEach(v -> parts.add(MultipartForm.Part.field(e.getKey(), v.asText())));
            else parts.add(MultipartForm.Part.field(e.getKey(), e.getValue().asText()));
        });
        parts.add(MultipartForm.Part.field("model", upstreamModel));
        parts.add(new MultipartForm.Part("file", fileName, fileType, audio));
        return OperationRequest.form(PATH, MultipartForm.encode(parts));
    }

    /** Token-billed models report tokens; duration-billed ones ({@code "type":"duration"}) and other bodies record none. */
    public static Usage usage(Buffer body) {
        JsonNode usage = Json.parseOrNull(body) instanceof JsonNode n ? n.path("usage") : null;
        if (usage == null || !"tokens".equals(usage.path("type").asText())) return Usage.ZERO;
        return new Usage(usage.path("input_tokens").asLong(0), 0, 0, 0, usage.path("output_tokens").asLong(0), 0);
    }
}
