package dev.modelgateway.accounts.limits;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script and its SHA-1 digest, the name {@code EVALSHA} calls it by: computed here as Redis computes it, so
 * that every node of a cluster (each with its own script cache, filled by the first {@code EVAL}) is called the same
 * way without loading the script into each.
 */
record RedisScript(String source, String sha) {

    static RedisScript of(String source) {
        try {
            return new RedisScript(source, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(source.getBytes(StandardCharsets.UTF_8))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
