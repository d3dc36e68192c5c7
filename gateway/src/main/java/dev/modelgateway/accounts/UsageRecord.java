package dev.modelgateway.accounts;

import dev.modelgateway.canonical.Usage;

import java.time.Instant;

/**
 * What one request consumed, as the request path reports it. The cost is computed by {@link Accounts}
 * from the {@code PriceBook} price of {@code answeredModel} (or {@code publicModel} when nothing answered) as
 * {@code deployment} served it: the deployment's own price when it has one (docs/clouds.md, "Prices").
 *
 * @param answeredModel public id of the model that produced the answer; null if none did
 * @param attempts      upstream attempts, retries and fallbacks included
 * @param status        the HTTP status the caller got (a cut-off stream keeps its 200)
 * @param teamId        the key's team at the time of the call; null outside a team
 * @param deployment    the id of the deployment of the last attempt ({@code routing/Deployment.id}); null when none
 *                      was chosen (refused, answered by the gateway itself)
 * @param userId        the user the call is billed to: the one behind an identity provider's token, or the owner of
 *                      the platform key; null for a key that belongs to nobody
 */
public record UsageRecord(String traceId, String keyId, String publicModel, String answeredModel, String vendor,
                          Usage usage, int attempts, int status, long latencyMs, Long timeToFirstTokenMs, Instant at,
                          String teamId, String deployment, String userId) {

    /** A record that names no user. */
    public UsageRecord(String traceId, String keyId, String publicModel, String answeredModel, String vendor,
                       Usage usage, int attempts, int status, long latencyMs, Long timeToFirstTokenMs, Instant at,
                       String teamId, String deployment) {
        this(traceId, keyId, publicModel, answeredModel, vendor, usage, attempts, status, latencyMs, timeToFirstTokenMs, at,
                teamId, deployment, null);
    }

    /** A record that names no deployment. */
    public UsageRecord(String traceId, String keyId, String publicModel, String answeredModel, String vendor,
                       Usage usage, int attempts, int status, long latencyMs, Long timeToFirstTokenMs, Instant at,
                       String teamId) {
        this(traceId, keyId, publicModel, answeredModel, vendor, usage, attempts, status, latencyMs, timeToFirstTokenMs, at,
                teamId, null);
    }

    /** A record of a key outside any team. */
    public UsageRecord(String traceId, String keyId, String publicModel, String answeredModel, String vendor,
                       Usage usage, int attempts, int status, long latencyMs, Long timeToFirstTokenMs, Instant at) {
        this(traceId, keyId, publicModel, answeredModel, vendor, usage, attempts, status, latencyMs, timeToFirstTokenMs, at, null);
    }
}
