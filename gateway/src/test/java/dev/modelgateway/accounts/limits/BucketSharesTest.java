package dev.modelgateway.accounts.limits;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules for admitting on local knowledge, with a hand-driven clock and hand-made Redis reports. */
class BucketSharesTest {
    private final BucketShares shares = new BucketShares();
    private final RateScope scope = new RateScope("key_1", null, new RateLimits(1000, 0));

    @Test
    void withoutAReportRedisDecides() {
        assertThat(take(0)).isNull();
    }

    @Test
    void betweenTwoReportsAtMostATenthOfTheRoomAboveTheFloorIsTakenLocally() {
        report(999, 1, 0);
        // Floor: a quarter of 1000. Room above it: 749; a tenth: 74 requests.
        for (int i = 0; i < 74; i++) assertThat(take(10)).as("take %d", i).isNotNull();
        assertThat(take(10)).isNull();

        List<BucketShares.Owed> sent = shares.sendAll(10);
        assertThat(sent).singleElement().satisfies(o -> assertThat(o.requests()).isEqualTo(74));
        report(sent.getFirst(), 925, 2, 20); // the answer to the flush: a new report, a new allowance
        RateDecision next = take(20).getFirst();
        assertThat(next.allowed()).isTrue();
        assertThat(next.remainingRequests()).isEqualTo(924);
    }

    @Test
    void nearTheFloorRedisDecides() {
        report(252, 1, 0);
        assertThat(take(0)).isNull(); // a tenth of 2 requests above the floor is less than one
        report(300, 2, 0);
        assertThat(take(0)).isNotNull(); // 5 allowed
    }

    @Test
    void aStaleReportIsNotTrusted() {
        report(999, 1, 0);
        assertThat(take(BucketShares.FRESH_MS)).isNotNull();
        assertThat(take(BucketShares.FRESH_MS + 1)).isNull();
    }

    @Test
    void anOlderReportArrivingLateDoesNotOverwriteANewerOne() {
        report(500, 10, 0);
        report(900, 5, 0);
        assertThat(take(0).getFirst().remainingRequests()).isEqualTo(499);
    }

    @Test
    void whatAFailedWriteCarriedIsOwedAgain() {
        report(999, 1, 0);
        take(0);
        take(0);
        shares.owe(new RateScope("key_1", null, new RateLimits(1000, 5000)), -30);
        BucketShares.Owed sent = shares.send(scope);
        assertThat(sent.requests()).isEqualTo(2);
        assertThat(sent.tokens()).isEqualTo(-30);
        shares.failed(sent);
        BucketShares.Owed again = shares.sendAll(0).getFirst();
        assertThat(again.requests()).isEqualTo(2);
        assertThat(again.tokens()).isEqualTo(-30);
    }

    private List<RateDecision> take(long nowMs) {
        return shares.tryTake(List.of(scope), 0, nowMs);
    }

    /** A report answering a write that carried nothing. */
    private void report(double requests, long redisMs, long nowMs) {
        report(shares.send(scope), requests, redisMs, nowMs);
    }

    private void report(BucketShares.Owed sent, double requests, long redisMs, long nowMs) {
        shares.reported(sent, requests, 0, redisMs, nowMs);
    }
}
