package dev.modelgateway.canonical;

/** A prompt-cache breakpoint on a block ({@code cache_control}); ttl is "5m", "1h" or null (vendor default). */
public record CacheMarker(String ttl) {
    public static final CacheMarker DEFAULT = new CacheMarker(null);
}
