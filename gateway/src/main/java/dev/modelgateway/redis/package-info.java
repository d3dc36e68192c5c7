/**
 * The one way the gateway connects to Redis (docs/operations/scale-out.md, "Redis"): {@code accounts.redis_url}'s mode
 * (one node, Sentinel, Cluster), TLS and credentials turned into Vert.x's Redis client options, for every shared
 * structure (rate limits and holds in {@code accounts/limits}, cooldowns in {@code upstream}, owners in
 * {@code services}, the probes in {@code server}).
 *
 * <p>Imports {@code config} only. Builds options; opens nothing itself.
 */
package dev.modelgateway.redis;
