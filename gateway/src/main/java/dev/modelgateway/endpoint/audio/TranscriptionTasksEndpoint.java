package dev.modelgateway.endpoint.audio;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.endpoint.FormBody;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.services.TranscriptionTasks;
import dev.modelgateway.wire.MultipartForm;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

/**
 * Transcription as an asynchronous task: {@code POST /api/v1/audio/transcriptions/tasks} takes vendor B's
 * multipart transcription form and answers 202 with the queued task at once;
 * {@code GET /api/v1/audio/transcriptions/tasks/{id}} returns its state and, once done, the transcript.
 */
public final class TranscriptionTasksEndpoint {
    /** Form fields forwarded to the vendor; {@code model} and {@code file} are handled apart, {@code stream} is dropped. */
    static final Set<String> FORWARDED = Set.of("language", "prompt", "response_format", "temperature",
            "timestamp_granularities[]", "include[]", "chunking_strategy");
    static final Set<String> FORMATS = Set.of("json", "text", "srt", "verbose_json", "vtt", "diarized_json");

    private final CallServices platform;
    private final TranscriptionTasks tasks;

    public TranscriptionTasksEndpoint(CallServices platform, TranscriptionTasks tasks) {
        this.platform = platform;
        this.tasks = tasks;
    }

    public void submit(RoutingContext ctx) {
        FormBody.read(ctx, parts -> submit(ctx, parts));
    }

    private void submit(RoutingContext ctx, List<MultipartForm.Part> parts) {
        if (parts == null) {
            throw GatewayException.invalid("file", "Send the audio as multipart/form-data with the fields 'file' and 'model'.");
        }
        MultipartForm.Part file = MultipartForm.single(parts, "file");
        MultipartForm.Part modelPart = MultipartForm.single(parts, "model");
        if (modelPart == null || modelPart.text().isBlank()) throw GatewayException.invalid("model", "Missing required parameter: 'model'.");
        if (file == null || file.data().length == 0) throw GatewayException.invalid("file", "Missing required parameter: 'file'.");
        ModelEntry model = platform.catalogue().resolve(modelPart.text().trim());
        Exchange ex = Exchange.of(ctx);
        ex.model(model.id());
        if (model.kind() != ModelKind.AUDIO || !model.has("transcription")) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not transcribe audio; use e.g. platform/vendorB-transcribe.");
        }
        ObjectNode form = Json.MAPPER.createObjectNode();
        for (MultipartForm.Part p : parts) {
            if (!FORWARDED.contains(p.name())) continue;
            if (p.name().endsWith("[]")) {
                if (!form.has(p.name())) form.putArray(p.name());
                form.withArray(p.name()).add(p.text());
            } else {
                form.put(p.name(), p.text());
            }
        }
        String format = form.path("response_format").asText("json");
        if (!FORMATS.contains(format)) {
            throw GatewayException.invalid("response_format", "'response_format' must be one of " + String.join(", ", FORMATS) + ".");
        }
        // Admission checks the key's allow-list, budget and rate limits; the audio is not a token estimate. The task
        // records its own cost when it finishes: the call's slot and budget reservation end once it is stored.
        OperationCall.handOver(platform, ex, model, () -> tasks.submit(ex.caller().keyId(), model, form, file))
                .onSuccess(task -> ctx.response().setStatusCode(202).putHeader("content-type", "application/json")
                        .putHeader("location", "/api/v1/audio/transcriptions/tasks/" + task.id())
                        .end(Json.toBuffer(task.toJson())))
                .onFailure(e -> Exchange.fail(ctx, (GatewayException) e))
                // the task writes the ledger row; the request's access line and span need not wait for it
                .onComplete(done -> ex.trace().callHandedOff());
    }

    public void get(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        tasks.find(id, Exchange.of(ctx).caller().keyId())
                .onSuccess(found -> found.ifPresentOrElse(
                        task -> ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(task.toJson())),
                        () -> Exchange.fail(ctx, GatewayException.of(ErrorKind.NOT_FOUND, "No transcription task '" + id + "' for this API key.")
                                .withParam("id").withCode("not_found"))))
                .onFailure(e -> Exchange.fail(ctx, GatewayException.of(ErrorKind.UNAVAILABLE, "The task store is unavailable.")));
    }
}
