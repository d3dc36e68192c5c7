package dev.modelgateway.catalogue;

/** Retired models stay in the catalogue so that callers get a useful 404 naming the replacement. */
public enum ModelStatus {
    ACTIVE, RETIRED
}
