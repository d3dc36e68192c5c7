package dev.modelgateway.upstream;

import dev.modelgateway.canonical.Usage;

/**
 * What one relayed call produced, for the ledger.
 *
 * @param status        the HTTP status the caller saw (499 when the caller went away first)
 * @param ttftMs        milliseconds until the first byte went to the caller, null if nothing was sent
 * @param cutOff        true when a stream ended without its terminal event
 */
public record RelayOutcome(int status, Usage usage, Long ttftMs, boolean cutOff) {
}
