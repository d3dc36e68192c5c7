package dev.modelgateway.accounts;

import dev.modelgateway.catalogue.ModelPrice;

/** Prices by public model id; the catalogue implements it. Null for an unknown model. */
public interface PriceBook {
    ModelPrice priceOf(String publicModelId);
}
