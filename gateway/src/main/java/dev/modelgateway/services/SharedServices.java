package dev.modelgateway.services;

import io.vertx.core.Future;

/**
 * State the endpoints share across event loops (one instance per gateway process): the responses the gateway
 * made, who created each vendor B response and item ({@link ResponseOwners}, in Redis when configured), and
 * transcription tasks.
 */
public record SharedServices(ResponseStore responses, ResponseOwners owners, TranscriptionTasks transcriptions) {
    public Future<Void> close() {
        return transcriptions.close().eventually(owners::close);
    }
}
