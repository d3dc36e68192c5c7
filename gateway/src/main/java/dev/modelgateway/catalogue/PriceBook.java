package dev.modelgateway.catalogue;

/** Prices by public model id; the catalogue implements it. Null for an unknown model. */
public interface PriceBook {
    ModelPrice priceOf(String publicModelId);
}
