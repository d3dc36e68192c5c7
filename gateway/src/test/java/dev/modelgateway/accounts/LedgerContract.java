package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** The ledger, budgets and model allow-lists, run against each database. */
abstract class LedgerContract {
    static final String LARGE = "platform/vendorA-large";

    Vertx vertx;
    Accounts accounts;

    abstract String databaseUrl();

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        accounts = open(vertx);
    }

    @AfterEach
    void close() {
        await(accounts.close());
        await(vertx.close());
    }

    Accounts open(Vertx v) {
        return await(Accounts.open(v, new AccountsConfig(databaseUrl(), null, null), Fixtures.PRICES));
    }

    ApiKey newKey(List<String> models, String budget) {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings(Fixtures.random("key-"), models, null, null,
                budget == null ? null : new BigDecimal(budget), null), false));
        return await(accounts.authenticate(created.secret()));
    }

    @Test
    void ledgerHoldsTokensAndCostOfSuccessFailureAndCutOffStream() throws SQLException {
        ApiKey key = newKey(List.of(), null);
        Instant at = Instant.parse("2025-06-01T10:15:00Z");
        // 1000 fresh input, 2000 cache reads, 100 written to the 5-minute cache, 500 output of which 100 reasoning.
        accounts.record(new UsageRecord("t-ok", key.id(), LARGE, LARGE, "vendorA", new Usage(1000, 2000, 100, 0, 500, 100),
                1, 200, 900, 150L, at));
        accounts.record(new UsageRecord("t-fail", key.id(), LARGE, null, "vendorA", Usage.ZERO, 3, 502, 3000, null, at));
        // The stream was cut after 37 tokens; the caller already had its 200.
        accounts.record(new UsageRecord("t-cut", key.id(), LARGE, LARGE, "vendorA", new Usage(1000, 0, 0, 0, 37, 0),
                1, 200, 400, 90L, at));
        await(accounts.close());

        Map<String, Map<String, Object>> rows = rows("SELECT * FROM usage_ledger WHERE key_id = ?", key.id());
        assertThat(rows).containsOnlyKeys("t-ok", "t-fail", "t-cut");

        Map<String, Object> ok = rows.get("t-ok");
        assertThat(ok).containsEntry("public_model", LARGE).containsEntry("answered_model", LARGE)
                .containsEntry("vendor", "vendorA").containsEntry("input_tokens", 1000L)
                .containsEntry("cache_read_tokens", 2000L).containsEntry("cache_write_5m_tokens", 100L)
                .containsEntry("cache_write_1h_tokens", 0L).containsEntry("output_tokens", 500L)
                .containsEntry("reasoning_tokens", 100L).containsEntry("attempts", 1L).containsEntry("status", 200L)
                .containsEntry("latency_ms", 900L).containsEntry("ttft_ms", 150L)
                .containsEntry("at_ms", at.toEpochMilli());
        // 1000 x $3 + 2000 x $0.30 (cache reads at 10%) + 100 x $3.75 + 500 x $15, per million: $0.011475.
        assertThat(Money.fromE10((Long) ok.get("cost_usd_e10"))).isEqualByComparingTo("0.011475");

        Map<String, Object> failed = rows.get("t-fail");
        assertThat(failed).containsEntry("status", 502L).containsEntry("attempts", 3L)
                .containsEntry("answered_model", null).containsEntry("ttft_ms", null).containsEntry("cost_usd_e10", 0L);

        Map<String, Object> cut = rows.get("t-cut");
        assertThat(cut).containsEntry("output_tokens", 37L);
        assertThat(Money.fromE10((Long) cut.get("cost_usd_e10"))).isEqualByComparingTo("0.003555");

        Map<String, Object> spent = rows("SELECT id AS trace_id, spent_usd_e10 FROM api_keys WHERE id = ?", key.id())
                .get(key.id());
        assertThat(Money.fromE10((Long) spent.get("spent_usd_e10"))).isEqualByComparingTo("0.01503");
    }

    @Test
    void closeFlushesEveryQueuedRecord() throws SQLException {
        ApiKey key = newKey(List.of(), null);
        int n = 1_234; // more than two batches
        for (int i = 0; i < n; i++) {
            accounts.record(Fixtures.usage(key.id(), LARGE, new Usage(10, 0, 0, 0, 1, 0), 200, Instant.now()));
        }
        await(accounts.close());
        assertThat(rows("SELECT trace_id FROM usage_ledger WHERE key_id = ?", key.id())).hasSize(n);
    }

    @Test
    void spentBudgetIsRefusedWith429AndStaysRefusedAfterRestart() {
        ApiKey key = newKey(List.of(), "0.02");
        assertThat(await(accounts.admit(key, LARGE, 100)).headers()).isEmpty();
        Usage big = new Usage(1000, 2000, 100, 0, 500, 100); // $0.011475
        accounts.record(Fixtures.usage(key.id(), LARGE, big, 200, Instant.now()));
        assertThat(await(accounts.admit(key, LARGE, 100))).isNotNull(); // $0.011475 of $0.02: still allowed
        accounts.record(Fixtures.usage(key.id(), LARGE, big, 200, Instant.now()));

        // Counted as soon as recorded, before the ledger write.
        GatewayException e = (GatewayException) failure(accounts.admit(key, LARGE, 100));
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.code()).isEqualTo("insufficient_quota");
        assertThat(e.getMessage()).contains("$0.02").contains("$0.02295");
        assertThat(e.headers()).containsEntry("x-should-retry", "false");

        await(accounts.close());
        accounts = open(vertx);
        assertThat(((GatewayException) failure(accounts.admit(key, LARGE, 100))).code()).isEqualTo("insufficient_quota");
    }

    @Test
    void modelOutsideTheAllowListIsRefusedWith403NamingIt() {
        ApiKey key = newKey(List.of("platform/vendorA-*", "other/exact"), null);
        assertThat(await(accounts.admit(key, LARGE, 10))).isNotNull();
        assertThat(await(accounts.admit(key, "other/exact", 10))).isNotNull();
        GatewayException e = (GatewayException) failure(accounts.admit(key, "platform/vendorB-large", 10));
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.param()).isEqualTo("model");
        assertThat(e.getMessage()).contains("platform/vendorB-large");
    }

    /** Rows keyed by trace id, column name to value (numbers as Long). */
    Map<String, Map<String, Object>> rows(String sql, String arg) throws SQLException {
        try (Connection c = DriverManager.getConnection(databaseUrl()); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
                List<String> columns = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) columns.add(rs.getMetaData().getColumnLabel(i).toLowerCase());
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 0; i < columns.size(); i++) {
                        Object v = rs.getObject(i + 1);
                        row.put(columns.get(i), v instanceof Number num ? (Object) num.longValue() : v);
                    }
                    rows.put((String) row.get("trace_id"), row);
                }
                return rows;
            }
        }
    }
}
