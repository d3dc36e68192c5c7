/**
 * The HTTP handlers, one package per endpoint: parse once, validate (400 naming the field), resolve the
 * model, hand over to call; shared model resolution and message-shape checks.
 *
 * <p>May import call, services, routing, http, wire, accounts, catalogue, canonical, config, error, json; never
 * upstream: every vendor call goes through call (LayoutTest). Nothing imports it but server. Runs on the event loop;
 * work that grows with a large body (parsing, checking, copying, tokenizing) goes to a worker thread through
 * {@code http/BodyWork}.
 */
package dev.modelgateway.endpoint;
