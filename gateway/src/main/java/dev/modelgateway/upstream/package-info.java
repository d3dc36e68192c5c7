/**
 * The I/O edge: vendor HTTP and WebSocket clients with their pools and credentials, the relay and its stream
 * pump (taking the Exchange and the deadline, not the RoutingContext), the SSRF-guarded media fetcher,
 * multipart forms.
 *
 * <p>May import wire, routing, http, net, canonical, config, error, json, sse; never endpoint, call or services. Runs
 * on the event loop; never blocks.
 */
package dev.modelgateway.upstream;
