package dev.modelgateway.services;

/**
 * State the endpoints share across event loops (one instance per gateway process): the responses the gateway
 * made ({@link ResponseStore}, in PostgreSQL when the gateway has one), who created each vendor B response and item
 * ({@link ResponseOwners}, in Redis when configured), and transcription tasks (in the accounts database).
 */
public record SharedServices(ResponseStore responses, ResponseOwners owners, TranscriptionTasks transcriptions) {
}
