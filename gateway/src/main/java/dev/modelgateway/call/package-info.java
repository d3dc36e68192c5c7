/**
 * One call's life: admit, plan, attempt (native or translated), relay, record (CallRunner.run lists the
 * steps); OperationCall, the one path of the vendor calls without platform_options (embeddings, images, audio,
 * token counting, stored responses), and RealtimeSessions; the final error in the caller's shape.
 *
 * <p>May import http, routing, upstream, wire, accounts, catalogue, canonical, config, error, json. Runs on the
 * event loop; never blocks.
 */
package dev.modelgateway.call;
