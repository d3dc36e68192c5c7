package dev.modelgateway.e2e.identity;

import dev.modelgateway.testing.E2e;

/** {@link CallerTokensContract} on a temporary SQLite file, counters in process. */
@E2e
class CallerTokensTest extends CallerTokensContract {
}
