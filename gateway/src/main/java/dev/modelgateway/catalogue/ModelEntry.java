package dev.modelgateway.catalogue;

import dev.modelgateway.config.Vendor;

import java.util.Set;

/**
 * One public model of the catalogue.
 *
 * @param id             the public id callers send ({@code platform/vendorA-sonnet-5}, {@code vendorD-plus-latest})
 * @param upstreamId     the id sent to the vendor
 * @param samplingParams false for models that refuse temperature/top_p/logprobs on chat completions (series 6)
 * @param replacement    for retired models, the id to use instead (may be null)
 */
public record ModelEntry(String id, Vendor vendor, String upstreamId, ModelKind kind, Set<String> capabilities,
                         long contextWindow, long maxOutputTokens, ModelPrice price, ThinkingPolicy thinking,
                         boolean samplingParams, ModelStatus status, String replacement) {

    public boolean has(String capability) {
        return capabilities.contains(capability);
    }

    public boolean retired() {
        return status == ModelStatus.RETIRED;
    }

    /** The same model as one deployment serves it: under that deployment's id for it. */
    public ModelEntry withUpstream(String id) {
        return id.equals(upstreamId) ? this : new ModelEntry(this.id, vendor, id, kind, capabilities, contextWindow, maxOutputTokens,
                price, thinking, samplingParams, status, replacement);
    }
}
