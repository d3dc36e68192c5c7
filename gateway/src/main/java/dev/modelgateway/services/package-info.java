/**
 * State shared by the endpoints across event loops: stored Responses for previous_response_id, which API key
 * created each vendor B response and item (in Redis when configured, so shared by every instance), and
 * transcription tasks (stored, resumed after a restart).
 *
 * <p>May import upstream, accounts, catalogue, canonical, config, json, store. JDBC runs on Vert.x worker
 * threads; the rest (Redis included, non-blocking) on the event loop.
 */
package dev.modelgateway.services;
