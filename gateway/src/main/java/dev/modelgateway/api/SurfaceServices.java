package dev.modelgateway.api;

import dev.modelgateway.api.audio.TranscriptionTasks;
import dev.modelgateway.api.responses.ResponseStore;

/** State the endpoints share across event loops (one instance per gateway process). */
public record SurfaceServices(ResponseStore responses, TranscriptionTasks transcriptions) {
}
