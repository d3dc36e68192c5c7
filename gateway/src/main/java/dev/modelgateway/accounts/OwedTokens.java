package dev.modelgateway.accounts;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token corrections (actual usage minus the admission's estimate) not yet written to the shared buckets.
 * They ride along with the bucket's next Redis call, so settling a request costs no round trip of its own;
 * a periodic flush writes those of buckets that see no further request.
 */
final class OwedTokens {

    /** What one bucket is owed; {@code scope} carries the limits the script needs to write it. */
    record Owed(String bucket, RateScope scope, long tokens) {
    }

    private final ConcurrentHashMap<String, Owed> byBucket = new ConcurrentHashMap<>();

    void add(String bucket, RateScope scope, long tokens) {
        if (tokens == 0) return;
        byBucket.merge(bucket, new Owed(bucket, scope, tokens), (a, b) -> {
            long sum = a.tokens() + b.tokens();
            return sum == 0 ? null : new Owed(bucket, b.scope(), sum);
        });
    }

    /** Removes and returns what {@code bucket} is owed, 0 if nothing; the caller must write it or {@link #add} it back. */
    long take(String bucket) {
        Owed owed = byBucket.remove(bucket);
        return owed == null ? 0 : owed.tokens();
    }

    /** Removes and returns everything owed. */
    List<Owed> takeAll() {
        List<Owed> all = new ArrayList<>();
        for (String bucket : byBucket.keySet()) {
            Owed owed = byBucket.remove(bucket);
            if (owed != null) all.add(owed);
        }
        return all;
    }
}
