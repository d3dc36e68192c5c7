/**
 * The handler for speech, synchronous transcriptions and transcription tasks.
 *
 * <p>Same rules as the endpoint package: may import call, services, routing, http, wire and the
 * foundations. Runs on the event loop.
 */
package dev.modelgateway.endpoint.audio;
