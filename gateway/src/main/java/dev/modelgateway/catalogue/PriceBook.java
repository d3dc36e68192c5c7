package dev.modelgateway.catalogue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * Prices by public model id; the catalogue implements it. Null for a model without a price (or an unknown id): the
 * gateway refuses such a model rather than record its usage at $0 (docs/accounts.md, "Prices").
 */
public interface PriceBook {
    ModelPrice priceOf(String publicModelId);

    /**
     * The price of a call to {@code publicModelId} that deployment {@code deploymentId} served (null: none, or not
     * known): the deployment's own price when the configuration gives it one (docs/clouds.md, "Prices"), else the
     * model's. The catalogue knows no deployments: the model's.
     */
    default ModelPrice priceOf(String publicModelId, String deploymentId) {
        return priceOf(publicModelId);
    }

    /**
     * Names this table of prices: the same prices, the same version. Each ledger row keeps the version it was
     * priced with, so a later correction can be told from the prices a row was charged at.
     */
    default String version() {
        return "unversioned";
    }

    /** Every model's price (null: none), in id order, as {@link #version()} names them; empty when not known. */
    default SortedMap<String, ModelPrice> table() {
        return Collections.emptySortedMap();
    }

    /** {@code pt-} and 12 hex digits of a SHA-256 of every entry of a {@link #table()}, in its order. */
    static String versionOf(SortedMap<String, ModelPrice> table) {
        StringBuilder text = new StringBuilder();
        table.forEach((id, price) -> text.append(id).append('=').append(price == null ? "none" : price.fingerprint()).append('\n'));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return "pt-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The prices of whichever book {@code current} gives at each call: the catalogue in force after a reload. */
    static PriceBook current(Supplier<? extends PriceBook> current) {
        return new PriceBook() {
            @Override
            public ModelPrice priceOf(String publicModelId) {
                return current.get().priceOf(publicModelId);
            }

            @Override
            public ModelPrice priceOf(String publicModelId, String deploymentId) {
                return current.get().priceOf(publicModelId, deploymentId);
            }

            @Override
            public String version() {
                return current.get().version();
            }

            @Override
            public SortedMap<String, ModelPrice> table() {
                return current.get().table();
            }
        };
    }
}
