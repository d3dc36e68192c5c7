/**
 * The handler for token counting: exact where the chosen deployment's API counts (vendor A, Bedrock, Vertex), local otherwise.
 *
 * <p>Same rules as the endpoint package: may import call, services, routing, http, wire and the
 * foundations. Runs on the event loop.
 */
package dev.modelgateway.endpoint.tokens;
