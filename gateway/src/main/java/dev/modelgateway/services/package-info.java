/**
 * State shared by the endpoints across event loops: stored Responses for previous_response_id, and
 * transcription tasks (stored, resumed after a restart).
 *
 * <p>May import upstream, accounts, catalogue, canonical, config, json, store. JDBC runs on Vert.x worker
 * threads; the rest on the event loop.
 */
package dev.modelgateway.services;
