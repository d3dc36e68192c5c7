package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.accounts.ledger.UsageQuery;
import dev.modelgateway.accounts.ledger.UsageTotals;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.cli.KeysCommand;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prices per token class, the price-table version of each row, unpriced models, and re-pricing a range. */
class PricesTest {
    static final String MODEL = "platform/vendorA-large";

    @TempDir
    Path dir;
    Vertx vertx;
    Accounts accounts;
    /** The operator's prices, corrected during a test. */
    volatile ModelPrice current = Fixtures.LARGE;
    volatile String version = "v1";
    final PriceBook prices = new PriceBook() {
        @Override
        public ModelPrice priceOf(String model) {
            return switch (model) {
                case MODEL -> current;
                case "platform/vendorA-unknown" -> ModelPrice.UNKNOWN;
                default -> null;
            };
        }

        @Override
        public String version() {
            return version;
        }
    };

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
    void everyTokenClassHasItsOwnPriceAndServerToolsCostPerCall() throws Exception {
        ModelPrice p = ModelPrice.parse(new ObjectMapper().readTree("{\"input\": 3, \"output\": 15, \"cache_read\": 0.3,"
                + " \"cache_write_5m\": 3.75, \"cache_write_1h\": 6, \"reasoning\": 10, \"web_search\": 0.01}"));
        // 1M of each input class, 1M output of which 400k reasoning, 3 web searches
        Usage u = new Usage(1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 400_000, 3);
        // 3 + 0.30 + 3.75 + 6 + 600k x 15 + 400k x 10 + 3 x 0.01 = 13.05 + 9 + 4 + 0.03
        assertThat(p.cost(u)).isEqualByComparingTo("26.08");
        assertThat(ModelPrice.parse(new ObjectMapper().readTree("\"unknown\""))).isSameAs(ModelPrice.UNKNOWN);
        assertThat(ModelPrice.parse(new ObjectMapper().readTree("null"))).isNull();
        assertThatThrownBy(() -> ModelPrice.parse(new ObjectMapper().readTree("{\"input\": 3}")))
                .hasMessageContaining("price.output is required");
        assertThatThrownBy(() -> ModelPrice.parse(new ObjectMapper().readTree("{\"input\": 3, \"output\": 1, \"cache\": 1}")))
                .hasMessageContaining("unknown price field 'cache'");
    }

    @Test
    void aModelWithoutAPriceIsRefusedEvenForTheMasterKey() {
        ApiKey key = key();
        GatewayException e = (GatewayException) failure(accounts.admit(key, "platform/vendorA-unpriced", 10));
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.code()).isEqualTo("model_not_priced");
        assertThat(e.getMessage()).contains("platform/vendorA-unpriced");
        assertThat(((GatewayException) failure(accounts.admit(ApiKey.MASTER, "platform/vendorA-unpriced", 10))).code())
                .isEqualTo("model_not_priced");
        assertThat(((GatewayException) failure(accounts.admitFallback(key, "platform/vendorA-unpriced", 10))).code())
                .isEqualTo("model_not_priced");
    }

    @Test
    void anExplicitlyUnknownPriceIsAdmittedAndItsRowsAreMarkedNotFree() throws Exception {
        ApiKey key = key();
        assertThat(await(accounts.admit(key, "platform/vendorA-unknown", 10))).isNotNull();
        accounts.record(Fixtures.usage(key.id(), "platform/vendorA-unknown", new Usage(100, 0, 0, 0, 10, 0), 200, Instant.now()));
        accounts.record(Fixtures.usage(key.id(), MODEL, new Usage(100, 0, 0, 0, 10, 0), 200, Instant.now()));
        assertThat(Eventually.value("an alert", Duration.ofSeconds(10), () -> await(accounts.admin().alerts(10)), alerts -> !alerts.isEmpty()))
                .singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo("price_unknown");
            assertThat(a.holder()).isEqualTo("platform/vendorA-unknown");
        });
        await(accounts.close());
        accounts = null;
        assertThat(query("SELECT public_model, price_unknown, cost_usd_e10, price_version FROM usage_ledger WHERE key_id = ?"
                + " ORDER BY public_model", key.id()))
                .containsExactly(List.of(MODEL, 0L, Money.toE10(new BigDecimal("0.00045")), "v1"),
                        List.of("platform/vendorA-unknown", 1L, 0L, "v1"));
        assertThat(query("SELECT version FROM price_tables WHERE version = ?", "v1")).hasSize(1);
    }

    @Test
    void repricingARangeChangesItsTotalsAndTheSpendButNothingOutsideIt() throws SQLException {
        ApiKey key = key();
        Instant inRange = Instant.parse("2026-03-10T12:00:00Z");
        Instant before = Instant.parse("2026-02-10T12:00:00Z");
        Usage usage = new Usage(1_000, 0, 0, 0, 1_000, 0); // $0.003 + $0.015 at $3/$15
        for (int i = 0; i < 3; i++) accounts.record(Fixtures.usage(key.id(), MODEL, usage, 200, inRange));
        accounts.record(Fixtures.usage(key.id(), MODEL, usage, 200, before));
        accounts.record(Fixtures.usage(key.id(), "platform/vendorA-unknown", usage, 200, inRange));
        await(accounts.close());

        // the vendor's output price was $16, not $15: correct it, then re-price March
        current = new ModelPrice(new BigDecimal("3"), new BigDecimal("16"), new BigDecimal("0.30"), new BigDecimal("3.75"),
                new BigDecimal("6"));
        version = "v2";
        accounts = await(Accounts.open(vertx, new AccountsConfig(url(), null, null), prices));
        Repricing.Result r = await(accounts.admin().reprice(Actor.system("test"), Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-04-01T00:00:00Z")));
        assertThat(r.rows()).isEqualTo(4);
        assertThat(r.repriced()).isEqualTo(3);
        assertThat(r.skipped()).as("the unknown-priced row is left alone").isEqualTo(1);
        assertThat(Money.fromE10(r.beforeE10())).isEqualByComparingTo("0.054");
        assertThat(Money.fromE10(r.afterE10())).isEqualByComparingTo("0.057");

        UsageTotals march = await(accounts.admin().usage(new UsageQuery(Instant.parse("2026-03-01T00:00:00Z"),
                Instant.parse("2026-04-01T00:00:00Z"), key.id(), List.of()))).getFirst().totals();
        assertThat(Money.fromE10(march.costE10())).isEqualByComparingTo("0.057");
        UsageTotals february = await(accounts.admin().usage(new UsageQuery(Instant.parse("2026-02-01T00:00:00Z"),
                Instant.parse("2026-03-01T00:00:00Z"), key.id(), List.of()))).getFirst().totals();
        assertThat(Money.fromE10(february.costE10())).as("outside the range").isEqualByComparingTo("0.018");
        assertThat(query("SELECT spent_usd_e10 FROM budget_spend WHERE holder = ? AND period = 'm2026-03'", key.id()))
                .containsExactly(List.of(Money.toE10(new BigDecimal("0.057"))));
        assertThat(query("SELECT spent_usd_e10 FROM api_keys WHERE id = ?", key.id()))
                .containsExactly(List.of(Money.toE10(new BigDecimal("0.075"))));
        assertThat(query("SELECT DISTINCT price_version FROM usage_ledger WHERE key_id = ? AND price_unknown = 0"
                + " AND at_ms >= 1772323200000", key.id())).containsExactly(List.of("v2"));
        // a second run finds nothing to change
        assertThat(await(accounts.admin().reprice(Actor.system("test"), Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-04-01T00:00:00Z")))
                .repriced()).isZero();
    }

    @Test
    void theCliRepricesOnlyWithTheTableTheGatewayPricesWith() throws SQLException {
        ApiKey key = key();
        accounts.record(Fixtures.usage(key.id(), MODEL, new Usage(1_000, 0, 0, 0, 1_000, 0), 200,
                Instant.parse("2026-03-10T12:00:00Z"))); // $0.018 at the gateway's $3/$15
        await(accounts.close());
        accounts = null;
        String[] reprice = {"keys", "reprice", "--from", "2026-03-01", "--to", "2026-04-01"};
        AccountsConfig config = new AccountsConfig(url(), null, null);

        // ./gw keys reprice without the gateway's --config: the shipped prices, here twice the output price
        ModelPrice shipped = new ModelPrice(new BigDecimal("3"), new BigDecimal("30"), new BigDecimal("0.30"),
                new BigDecimal("3.75"), new BigDecimal("6"));
        var out = new ByteArrayOutputStream();
        int code = KeysCommand.run(reprice, config, model -> shipped, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(KeysCommand.USAGE);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("price table v1", "--config", "nothing was repriced");
        List<List<Object>> cost = List.of(List.of(Money.toE10(new BigDecimal("0.018"))));
        assertThat(query("SELECT cost_usd_e10 FROM usage_ledger WHERE key_id = ?", key.id())).isEqualTo(cost);
        assertThat(query("SELECT spent_usd_e10 FROM api_keys WHERE id = ?", key.id())).isEqualTo(cost);

        out.reset();
        assertThat(KeysCommand.run(reprice, config, prices, new PrintStream(out, true, StandardCharsets.UTF_8)))
                .as(out.toString(StandardCharsets.UTF_8)).isEqualTo(KeysCommand.OK);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"rows\" : 1", "\"price_version\" : \"v1\"");
    }

    private ApiKey key() {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings(Fixtures.random("key-"), List.of(), null, null, null, null), false));
        return await(accounts.authenticate(created.secret()));
    }

    private List<List<Object>> query(String sql, String arg) throws SQLException {
        try (Connection c = DriverManager.getConnection(url()); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                List<List<Object>> rows = new java.util.ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new java.util.ArrayList<>();
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
