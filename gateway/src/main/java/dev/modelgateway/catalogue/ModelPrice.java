package dev.modelgateway.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Iterator;
import java.util.Set;

/**
 * A model's prices in US dollars, one per token class: per million tokens for input, cache reads (typically 10% of
 * input, docs/contract.md §8: "up to 90 percent" cheaper), cache writes by TTL, output and reasoning (billed as
 * output unless priced apart), and per call for server tools ({@code web_search}: vendor A bills $10 per 1,000
 * searches). {@link #UNKNOWN} is the operator's explicit {@code price: unknown}: calls are allowed, cost nothing,
 * and their ledger rows are marked (docs/accounts.md, "Prices").
 */
public record ModelPrice(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite5m,
                         BigDecimal cacheWrite1h, BigDecimal reasoning, BigDecimal webSearchCall, boolean unknown) {

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    private static final Set<String> FIELDS = Set.of("input", "output", "cache_read", "cache_write_5m", "cache_write_1h",
            "reasoning", "web_search");

    public static final ModelPrice FREE = new ModelPrice(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO,
            BigDecimal.ZERO, BigDecimal.ZERO);
    /** {@code price: unknown}: allowed, but never mistaken for free. */
    public static final ModelPrice UNKNOWN = new ModelPrice(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO,
            BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, true);

    /** Token prices with reasoning billed as output and no server-tool price. */
    public ModelPrice(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite5m, BigDecimal cacheWrite1h) {
        this(input, output, cacheRead, cacheWrite5m, cacheWrite1h, output, BigDecimal.ZERO, false);
    }

    /**
     * The one reader of a price in the catalogue's format (catalogue.yaml and the configuration's overrides):
     * {@code {input: 3.00, output: 15.00, cache_read: 0.30, cache_write_5m: 3.75, cache_write_1h: 6.00,
     * reasoning: 15.00, web_search: 0.01}} or the word {@code unknown}. {@code input} and {@code output} are
     * required (a price missing one would silently be $0); cache prices default to {@code input}, reasoning to
     * {@code output}, web search to 0. Null when {@code node} is missing or null: the model has no price, and the
     * gateway refuses it. Throws {@link IllegalArgumentException} naming the field for anything else.
     */
    public static ModelPrice parse(JsonNode node) {
        return parse("price", node);
    }

    /**
     * {@link #parse(JsonNode)} of the price written at {@code at}, which the refusals name
     * ({@code models.<id>.deployments[0].price.input is required}): a deployment's own price (docs/clouds.md, "Prices").
     */
    public static ModelPrice parse(String at, JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) return null;
        if (node.isTextual() && node.asText().equals("unknown")) return UNKNOWN;
        if (!node.isObject()) throw new IllegalArgumentException(at + " must be an object of prices or the word unknown");
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) throw new IllegalArgumentException(at + ": unknown price field '" + name + "'");
        }
        BigDecimal input = required(at, node, "input");
        BigDecimal output = required(at, node, "output");
        return new ModelPrice(input, output, optional(at, node, "cache_read", input), optional(at, node, "cache_write_5m", input),
                optional(at, node, "cache_write_1h", input), optional(at, node, "reasoning", output),
                optional(at, node, "web_search", BigDecimal.ZERO), false);
    }

    private static BigDecimal required(String at, JsonNode node, String field) {
        if (!node.hasNonNull(field)) throw new IllegalArgumentException(at + "." + field + " is required");
        return optional(at, node, field, null);
    }

    private static BigDecimal optional(String at, JsonNode node, String field, BigDecimal dflt) {
        if (!node.hasNonNull(field)) return dflt;
        try {
            BigDecimal v = new BigDecimal(node.get(field).asText());
            if (v.signum() >= 0) return v;
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException(at + "." + field + " must be a non-negative number of dollars");
    }

    /**
     * Cost of one request in dollars, to 10 decimal places: each token class at its own price (reasoning is the part
     * of the output spent on reasoning), plus each server-tool call.
     */
    public BigDecimal cost(Usage u) {
        long reasoningTokens = Math.min(u.reasoningTokens(), u.outputTokens());
        BigDecimal micro = input.multiply(BigDecimal.valueOf(u.inputTokens()))
                .add(cacheRead.multiply(BigDecimal.valueOf(u.cacheReadTokens())))
                .add(cacheWrite5m.multiply(BigDecimal.valueOf(u.cacheWrite5mTokens())))
                .add(cacheWrite1h.multiply(BigDecimal.valueOf(u.cacheWrite1hTokens())))
                .add(output.multiply(BigDecimal.valueOf(u.outputTokens() - reasoningTokens)))
                .add(reasoning.multiply(BigDecimal.valueOf(reasoningTokens)));
        return micro.divide(MILLION, 10, RoundingMode.HALF_UP)
                .add(webSearchCall.multiply(BigDecimal.valueOf(u.webSearchCalls())).setScale(10, RoundingMode.HALF_UP));
    }

    /** A stable text of every price, for {@link PriceBook#version()}. */
    public String fingerprint() {
        if (unknown) return "unknown";
        return String.join(",", input.stripTrailingZeros().toPlainString(), output.stripTrailingZeros().toPlainString(),
                cacheRead.stripTrailingZeros().toPlainString(), cacheWrite5m.stripTrailingZeros().toPlainString(),
                cacheWrite1h.stripTrailingZeros().toPlainString(), reasoning.stripTrailingZeros().toPlainString(),
                webSearchCall.stripTrailingZeros().toPlainString());
    }
}
