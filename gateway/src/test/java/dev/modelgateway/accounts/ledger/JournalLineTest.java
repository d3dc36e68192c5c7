package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.canonical.Usage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** A journal line reads back as the row it was written from, whatever its strings hold. */
class JournalLineTest {

    @Test
    void everyFieldSurvivesTheRoundTrip() {
        Usage u = new Usage(1, 2, 3, 4, 5, 6, 7);
        UsageRecord r = new UsageRecord("trace \"quoted\" \\ back", "key-1", "platform/vendorA-sonnet-5", null,
                "anthropic", u, 2, 200, -1234, null, Instant.ofEpochMilli(1_700_000_000_123L), "team\n\ttab\u0001",
                "aws/arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/x#2", "usr_0190\"x");
        LedgerEntry e = new LedgerEntry("id-1", r, u, "key-1", r.at(), Long.MAX_VALUE, "v1", true, null);
        LedgerEntry back = roundTrip(e);
        assertThat(back.record()).isEqualTo(r);
        assertThat(back).usingRecursiveComparison().isEqualTo(e);
    }

    @Test
    void aLineJournaledBeforeRowsNamedTheirDeploymentReadsBackWithNone() {
        String line = "{\"id\":\"id-0\",\"trace\":\"t\",\"key\":\"k\",\"team\":null,\"model\":\"m\",\"answered\":\"m\","
                + "\"vendor\":\"anthropic\",\"in\":1,\"cr\":0,\"cw5\":0,\"cw1\":0,\"out\":1,\"rs\":0,\"ws\":0,"
                + "\"attempts\":1,\"status\":200,\"latency\":3,\"ttft\":null,\"at\":5,\"cost\":18,\"prices\":\"v\","
                + "\"unknown\":false}\n";
        LedgerEntry back = JournalLine.decode(line);
        assertThat(back.record().deployment()).isNull();
        assertThat(back.record().userId()).as("journaled before rows named their user").isNull();
        assertThat(back.costE10()).isEqualTo(18);
    }

    @Test
    void nonAsciiTextAndSurrogatePairsAreUtf8() {
        Usage u = new Usage(10, 0, 0, 0, 20, 0);
        UsageRecord r = new UsageRecord("t", "k", "modèle-中文-😀 end", "ok", "vendor", u, 1, 200, 5, 42L,
                Instant.ofEpochMilli(5), null);
        LedgerEntry e = new LedgerEntry("id-2", r, u, "k", r.at(), Long.MIN_VALUE, "v", false, null);
        JournalLine line = new JournalLine().encode(e);
        String text = new String(line.bytes(), 0, line.length(), StandardCharsets.UTF_8);
        assertThat(text).endsWith("}\n").contains("modèle-中文-😀 end");
        assertThat(JournalLine.decode(text).record()).isEqualTo(r);
        assertThat(JournalLine.decode(text).costE10()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aReusedLineHoldsOnlyTheLastRowAndGrowsForALongOne() {
        JournalLine line = new JournalLine();
        Usage u = new Usage(1, 0, 0, 0, 1, 0);
        String longTrace = "x".repeat(5_000);
        LedgerEntry big = new LedgerEntry("a", new UsageRecord(longTrace, "k", "m", "m", "v", u, 1, 200, 1, 1L,
                Instant.ofEpochMilli(1), null), u, "k", Instant.ofEpochMilli(1), 1, "v", false, null);
        LedgerEntry small = new LedgerEntry("b", new UsageRecord("t", "k", "m", "m", "v", u, 1, 200, 1, 1L,
                Instant.ofEpochMilli(1), null), u, "k", Instant.ofEpochMilli(1), 1, "v", false, null);
        assertThat(roundTrip(line, big).record().traceId()).isEqualTo(longTrace);
        assertThat(roundTrip(line, small).id()).isEqualTo("b");
    }

    private static LedgerEntry roundTrip(LedgerEntry e) {
        return roundTrip(new JournalLine(), e);
    }

    private static LedgerEntry roundTrip(JournalLine line, LedgerEntry e) {
        line.encode(e);
        return JournalLine.decode(new String(line.bytes(), 0, line.length(), StandardCharsets.UTF_8));
    }
}
