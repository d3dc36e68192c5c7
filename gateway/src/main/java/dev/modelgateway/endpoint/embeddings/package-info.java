/**
 * The handler for embeddings to vendors B, C and D, and to Bedrock's and Vertex's embedding models.
 *
 * <p>Same rules as the endpoint package: may import call, services, routing, http, wire and the
 * foundations. Runs on the event loop.
 */
package dev.modelgateway.endpoint.embeddings;
