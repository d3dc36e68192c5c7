package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A row served by a deployment with its own price (docs/clouds.md, "Prices"): it names the deployment, is billed at
 * that price, and a re-pricing keeps pricing it so (a catalogue correction does not reach it; a corrected deployment
 * price does).
 */
class DeploymentPricesLedgerTest {
    static final String MODEL = "platform/vendorA-large";
    static final String REGIONAL = "aws/us.anthropic.large-v1:0";
    static final String DIRECT = "anthropic/large";

    @TempDir
    Path dir;
    Vertx vertx;
    Accounts accounts;
    volatile ModelPrice catalogue = Fixtures.LARGE; // $3 / $15, cache reads $0.30
    volatile ModelPrice regional = price("3.30", "16.50", "0.33");
    volatile String version = "v1";
    final PriceBook prices = new PriceBook() {
        @Override
        public ModelPrice priceOf(String model) {
            return model.equals(MODEL) ? catalogue : null;
        }

        @Override
        public ModelPrice priceOf(String model, String deployment) {
            return model.equals(MODEL) && REGIONAL.equals(deployment) ? regional : priceOf(model);
        }

        @Override
        public String version() {
            return version;
        }
    };

    static ModelPrice price(String input, String output, String cacheRead) {
        return new ModelPrice(new BigDecimal(input), new BigDecimal(output), new BigDecimal(cacheRead), new BigDecimal(input),
                new BigDecimal(input));
    }

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        accounts = await(Accounts.open(vertx, new AccountsConfig(url(), null, null), prices));
    }

    @AfterEach
    void close() {
        if (accounts != null) await(accounts.close());
        await(vertx.close());
    }

    String url() {
        return "jdbc:sqlite:" + dir.resolve("gateway.db");
    }

    @Test
    void aDeploymentsOwnPriceBillsItsRowsAndWinsOverACatalogueCorrectionWhenRepriced() throws SQLException {
        String key = await(accounts.admin().createKey(Actor.system("test"), new KeySettings(Fixtures.random("key-"), List.of(), null, null,
                null, null), false)).key().id();
        Instant at = Instant.parse("2026-03-10T12:00:00Z");
        Usage usage = new Usage(1_000, 1_000, 0, 0, 1_000, 0); // 1k input, 1k cache read, 1k output
        for (String deployment : new String[]{REGIONAL, DIRECT, null}) {
            accounts.record(new UsageRecord(Fixtures.random("trace-"), key, MODEL, MODEL, "vendorA", usage, 1, 200, 100, 10L, at,
                    null, deployment));
        }
        await(accounts.close());
        // $3.30 + $0.33 + $16.50 per million of each at the regional deployment's own price, $3 + $0.30 + $15 at the model's
        assertThat(costs(key)).containsExactly(List.of("-", usd("0.0183")), List.of(DIRECT, usd("0.0183")),
                List.of(REGIONAL, usd("0.02013")));

        // the catalogue's output price was $16: a reprice corrects the rows priced by the model, not the deployment's
        catalogue = price("3", "16", "0.30");
        version = "v2";
        accounts = await(Accounts.open(vertx, new AccountsConfig(url(), null, null), prices));
        Repricing.Result r = await(accounts.admin().reprice(Actor.system("test"), at.minusSeconds(60), at.plusSeconds(60)));
        assertThat(r.rows()).isEqualTo(3);
        assertThat(costs(key)).containsExactly(List.of("-", usd("0.0193")), List.of(DIRECT, usd("0.0193")),
                List.of(REGIONAL, usd("0.02013")));

        // the deployment is moved to the global endpoint's price: the next reprice bills its rows at that
        regional = price("3", "15", "0.30");
        version = "v3";
        await(accounts.admin().reprice(Actor.system("test"), at.minusSeconds(60), at.plusSeconds(60)));
        assertThat(costs(key)).containsExactly(List.of("-", usd("0.0193")), List.of(DIRECT, usd("0.0193")),
                List.of(REGIONAL, usd("0.0183")));
        assertThat(query("SELECT spent_usd_e10 FROM api_keys WHERE id = ?", key))
                .containsExactly(List.of(usd("0.0569")));
    }

    static long usd(String dollars) {
        return Money.toE10(new BigDecimal(dollars));
    }

    private List<List<Object>> costs(String key) throws SQLException {
        return query("SELECT COALESCE(deployment, '-'), cost_usd_e10 FROM usage_ledger WHERE key_id = ? ORDER BY 1", key);
    }

    private List<List<Object>> query(String sql, String arg) throws SQLException {
        try (Connection c = DriverManager.getConnection(url()); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                List<List<Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        Object v = rs.getObject(i);
                        row.add(v instanceof Number n ? (Object) n.longValue() : v);
                    }
                    rows.add(row);
                }
                return rows;
            }
        }
    }
}
