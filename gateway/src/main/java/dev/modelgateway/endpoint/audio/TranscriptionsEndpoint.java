package dev.modelgateway.endpoint.audio;

import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.endpoint.FormBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.wire.openai.media.OpenAiTranscriptions;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

/**
 * Synchronous {@code POST /api/v1/audio/transcriptions}: vendor B's multipart form relayed natively with only
 * {@code model} rewritten ({@link OpenAiTranscriptions}). JSON answers go back as JSON with their token usage metered; text formats
 * ({@code text}, {@code srt}, {@code vtt}) and {@code stream=true} answers are piped with the vendor's content type
 * and record no tokens (the usage is not in a form the gateway reads there).
 */
public final class TranscriptionsEndpoint {
    private static final Set<String> JSON_FORMATS = Set.of("json", "verbose_json", "diarized_json");

    private final CallServices platform;

    public TranscriptionsEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        FormBody.read(ctx, parts -> handle(ctx, parts));
    }

    private void handle(RoutingContext ctx, List<MultipartForm.Part> parts) {
        if (parts == null) throw GatewayException.invalid("file", "Send the audio as multipart/form-data with the fields 'file' and 'model'.");
        MultipartForm.Part modelPart = MultipartForm.single(parts, "model");
        MultipartForm.Part file = MultipartForm.single(parts, "file");
        if (modelPart == null || modelPart.text().isBlank()) throw GatewayException.invalid("model", "Missing required parameter: 'model'.");
        if (file == null || file.data().length == 0) throw GatewayException.invalid("file", "Missing required parameter: 'file'.");
        ModelEntry model = platform.catalogue().resolve(modelPart.text().trim());
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.AUDIO || !model.has("transcription")) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not transcribe audio; use e.g. platform/vendorB-transcribe.");
        }
        MultipartForm.Part formatPart = MultipartForm.single(parts, "response_format");
        String format = formatPart == null ? "json" : formatPart.text().trim();
        if (!TranscriptionTasksEndpoint.FORMATS.contains(format)) {
            throw GatewayException.invalid("response_format", "'response_format' must be one of "
                    + String.join(", ", TranscriptionTasksEndpoint.FORMATS) + ".");
        }
        MultipartForm.Part streamPart = MultipartForm.single(parts, "stream");
        boolean stream = streamPart != null && streamPart.text().trim().equals("true");

        OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model,
                OpenAiTranscriptions.operation(parts, JSON_FORMATS.contains(format) && !stream), OperationTimeouts::transcriptions);
    }
}
