/**
 * One call's life: admit, plan, attempt (native or translated), relay, record (CallRunner.run lists the
 * steps); SingleAttempt for the endpoints without platform_options; the final error in the caller's shape.
 *
 * <p>May import http, routing, upstream, wire, accounts, catalogue, canonical, config, error, json. Runs on the
 * event loop; never blocks.
 */
package dev.modelgateway.call;
