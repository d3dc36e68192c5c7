package dev.modelgateway.store;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

class TimeOrderedIdTest {

    @Test
    void version7WithTheTimeFirst() {
        long ms = 1_795_326_006_123L;
        UUID id = TimeOrderedId.of(ms, ThreadLocalRandom.current());
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(ms);
        // Text order is time order: the ledger's primary key grows at its end.
        assertThat(TimeOrderedId.of(ms, ThreadLocalRandom.current()).toString())
                .isLessThan(TimeOrderedId.of(ms + 1, ThreadLocalRandom.current()).toString());
    }

    @Test
    void uniqueWithinOneMillisecond() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 200_000; i++) ids.add(TimeOrderedId.of(42, ThreadLocalRandom.current()).toString());
        assertThat(ids).hasSize(200_000);
    }
}
