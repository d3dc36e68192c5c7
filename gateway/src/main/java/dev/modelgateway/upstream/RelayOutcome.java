package dev.modelgateway.upstream;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.RelayedText;

/**
 * How a vendor's answer ended for the caller: what the ledger records, and what it says of the deployment's
 * health. A vendor's failure before anything reached the caller is no outcome: the attempt fails, to be retried.
 */
public sealed interface RelayOutcome {
    /** The HTTP status the caller saw. */
    int status();

    /** What the vendor reported using, as far as it got. */
    Usage usage();

    /** Milliseconds until the first byte went to the caller; null if nothing was sent. */
    Long ttftMs();

    /**
     * An answer that ended before the vendor reported its usage: the text relayed meanwhile (a native stream's),
     * which the ledger bills at least; null when the vendor's usage covers the answer, or nothing was kept.
     */
    RelayedText unbilled();

    /**
     * The caller got the whole answer.
     *
     * @param status 200; 101 for a response of a realtime session
     */
    record Answered(int status, Usage usage, Long ttftMs) implements RelayOutcome {
        @Override
        public RelayedText unbilled() {
            return null;
        }
    }

    /**
     * The vendor broke the answer off, failed within it, or ran past the gateway's limits after its first byte: the
     * caller saw it end with the protocol's error (or a reset), 502. The vendor's failure.
     */
    record CutOff(Usage usage, Long ttftMs, RelayedText unbilled) implements RelayOutcome {
        public CutOff(Usage usage, Long ttftMs) {
            this(usage, ttftMs, null);
        }

        @Override
        public int status() {
            return 502;
        }
    }

    /**
     * The gateway's drain reached its deadline as the instance shut down (docs/operations/shutdown-and-rollouts.md):
     * the caller saw the answer end with its protocol's error event, code {@code server_shutting_down} (a binary answer
     * broken off); 503, and nothing said of the vendor.
     */
    record ShutDown(Usage usage, Long ttftMs, RelayedText unbilled) implements RelayOutcome {
        @Override
        public int status() {
            return 503;
        }
    }

    /** The caller went away before the answer was over: 499, and nothing said of the vendor. */
    record CallerLeft(Usage usage, Long ttftMs, RelayedText unbilled) implements RelayOutcome {
        public CallerLeft(Usage usage, Long ttftMs) {
            this(usage, ttftMs, null);
        }

        @Override
        public int status() {
            return 499;
        }
    }
}
