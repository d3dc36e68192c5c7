/**
 * The composition root: bootstrap (one verticle per event loop), the router, Bearer authentication, the
 * access log.
 *
 * <p>May import every package; nothing imports it.
 */
package dev.modelgateway.server;
