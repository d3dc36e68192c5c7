/**
 * What the gateway keeps for a caller, scoped to the API key that made it and bounded in size and time: the
 * Responses conversations it made for previous_response_id and item_reference (in PostgreSQL when the gateway
 * has one, so shared by every instance; else in this process), which API key created each vendor B response and
 * item (in Redis when configured), and transcription tasks (in the accounts database, resumed after a restart).
 *
 * <p>May import upstream, accounts, catalogue, canonical, config, json, store. JDBC runs on Vert.x worker
 * threads; the rest (Redis included, non-blocking) on the event loop.
 */
package dev.modelgateway.services;
