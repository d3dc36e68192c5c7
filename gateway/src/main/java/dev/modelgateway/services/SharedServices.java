package dev.modelgateway.services;


/** State the endpoints share across event loops (one instance per gateway process). */
public record SharedServices(ResponseStore responses, TranscriptionTasks transcriptions) {
}
