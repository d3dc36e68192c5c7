package dev.modelgateway.catalogue;

import java.util.Collections;
import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * Prices by public model id; the catalogue implements it. Null for a model without a price (or an unknown id): the
 * gateway refuses such a model rather than record its usage at $0 (docs/accounts.md, "Prices").
 */
public interface PriceBook {
    ModelPrice priceOf(String publicModelId);

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

    /** The prices of whichever book {@code current} gives at each call: the catalogue in force after a reload. */
    static PriceBook current(Supplier<? extends PriceBook> current) {
        return new PriceBook() {
            @Override
            public ModelPrice priceOf(String publicModelId) {
                return current.get().priceOf(publicModelId);
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
