/**
 * The handler for the vendor B features this platform does not offer (501 with advice).
 *
 * <p>Same rules as the endpoint package: may import call, services, routing, http, wire and the
 * foundations. Runs on the event loop.
 */
package dev.modelgateway.endpoint.unavailable;
