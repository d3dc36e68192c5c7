package dev.modelgateway.call;

import dev.modelgateway.canonical.CanonicalTokenCount;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.wire.RelayedText;
import io.vertx.core.Future;

/**
 * What a stream that ended before the vendor reported its usage is billed (docs/accounts.md, "A stream cut before
 * its usage"): the vendor's figures where it gave them, the output at least the tokens relayed to the caller, and the
 * input, when the vendor had not said it, estimated locally. A caller who reads every delta and leaves before the
 * usage event is billed as the vendor bills the operator, not nothing.
 */
final class CutStreamUsage {
    private CutStreamUsage() {
    }

    /** The usage to bill for {@code cut}: as the vendor reported it unless text was relayed beyond its report. */
    static Future<Usage> of(Call call, RelayOutcome cut) {
        Usage vendor = cut.usage() == null ? Usage.ZERO : cut.usage();
        RelayedText text = cut.unbilled();
        if (text == null || cut.ttftMs() == null) return Future.succeededFuture(vendor);
        // counting grows with the request and the answer: beside the event loop when they are large
        return Attempts.bodyWork(call.exchange(), call.requestBytes() + text.bytes(), () -> new Usage(
                vendor.totalInputTokens() > 0 ? vendor.inputTokens() : inputTokens(call), vendor.cacheReadTokens(),
                vendor.cacheWrite5mTokens(), vendor.cacheWrite1hTokens(), Math.max(vendor.outputTokens(), text.tokens()),
                vendor.reasoningTokens(), vendor.webSearchCalls()));
    }

    /**
     * The request's input tokens counted locally ({@link CanonicalTokenCount}); a native body the canonical model does
     * not take falls back to admission's rule of thumb, a token per four bytes.
     */
    private static long inputTokens(Call call) {
        try {
            return CanonicalTokenCount.count(call.canonical());
        } catch (GatewayException notCanonical) {
            return call.requestBytes() / 4;
        }
    }
}
