/**
 * What a call may try and when: platform_options, the attempt plan, the one retry rule, backoff, deadlines,
 * circuit breakers; the routes in force and their prices (a deployment's own, else its model's: RoutePrices).
 *
 * <p>May import catalogue, config, error, json. Pure but for the breakers' shared state; no I/O.
 */
package dev.modelgateway.routing;
