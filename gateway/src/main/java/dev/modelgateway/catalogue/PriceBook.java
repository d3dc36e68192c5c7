package dev.modelgateway.catalogue;

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
    default java.util.SortedMap<String, ModelPrice> table() {
        return java.util.Collections.emptySortedMap();
    }
}
