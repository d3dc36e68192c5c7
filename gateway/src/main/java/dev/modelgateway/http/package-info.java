/**
 * Request-scoped facts used below the router: the Exchange (trace id, error shape, caller, response, event
 * loop), the error shape per protocol, trace ids, multipart body collection, {@code BodyWork} (body-sized work
 * beside the event loop).
 *
 * <p>May import wire (error renderers), accounts (the caller's key), error, json. Runs on the event loop.
 */
package dev.modelgateway.http;
