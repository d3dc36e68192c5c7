package dev.modelgateway.observability;

import dev.modelgateway.canonical.Usage;

/**
 * What one call came to, as its ledger row says it (call/Metering builds both from the same values): the metrics,
 * the server span and the access log read it.
 *
 * @param requestedModel public id the caller asked for
 * @param answeredModel  public id of the model attempted last (the one that answered, if any); null if none was
 * @param vendor         the vendor of {@code answeredModel} (of {@code requestedModel} when none was attempted)
 * @param ttftMs         milliseconds to the first byte sent to the caller; null if nothing was sent
 * @param costUsd        the catalogue price of the usage, 0 when the model has none
 */
public record CallFacts(String requestedModel, String answeredModel, String vendor, int status, Usage usage,
                        int attempts, long latencyMs, Long ttftMs, double costUsd) {
}
