package dev.modelgateway.config;

import java.util.Set;

/**
 * What one deployment's model can do, as the operator declares it under {@code models.<id>.deployments[].capabilities}
 * (docs/clouds.md, "Capabilities"): never guessed from the model's name, because a cloud's ids (an application
 * inference profile's ARN, a provisioned-throughput ARN) do not say which model they serve.
 *
 * @param promptCache           cache markers (vendor A's {@code cache_control}, Converse's {@code cachePoint}) are
 *                              sent; when false they are dropped, so that a model without caching is not refused
 * @param thinking              the thinking modes the model takes ({@code adaptive}, {@code enabled}); empty: none
 * @param midConversationSystem system entries may stay where the caller put them in the conversation
 * @param maxOutputTokens       the model's output ceiling; null when not declared
 * @param contextWindow         the model's context window in tokens; null when not declared
 * @param baseModel             the foundation model behind an ARN (for prices and the catalogue's rules); null
 */
public record Capabilities(boolean promptCache, Set<String> thinking, boolean midConversationSystem,
                           Integer maxOutputTokens, Integer contextWindow, String baseModel) {
    /** What a deployment is taken to support when the operator declares nothing: the vendor's own API's full set. */
    public static final Capabilities NATIVE = new Capabilities(true, Set.of("adaptive", "enabled"), true, null, null, null);

    public Capabilities {
        thinking = thinking == null ? Set.of() : Set.copyOf(thinking);
    }
}
