package dev.modelgateway.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code accounts.redis_url}'s three modes, TLS and credentials, and what is refused (docs/operations/scale-out.md). */
class RedisUrlTest {

    @Test
    void oneNodeIsPassedOnAsTheClientReadsIt() {
        RedisUrl url = RedisUrl.parse("rediss://user:p%40ss@cache.example.com:6380/2?key_prefix=mg:");
        assertThat(url.mode()).isEqualTo(RedisUrl.Mode.STANDALONE);
        assertThat(url.nodes()).containsExactly("rediss://user:p%40ss@cache.example.com:6380/2?key_prefix=mg:");
        assertThat(url.masterName()).isNull();
        assertThat(RedisUrl.parse("redis://localhost").nodes()).containsExactly("redis://localhost:6379");
    }

    @Test
    void sentinelsEachGetTheCredentialsAndTheMasterSetIsNamed() {
        RedisUrl url = RedisUrl.parse("rediss-sentinel://:pw@s1:26379,s2,[::1]:26380/mymaster/3");
        assertThat(url.mode()).isEqualTo(RedisUrl.Mode.SENTINEL);
        assertThat(url.masterName()).isEqualTo("mymaster");
        assertThat(url.nodes()).containsExactly("rediss://:pw@s1:26379/3", "rediss://:pw@s2:26379/3", "rediss://:pw@[::1]:26380/3");
    }

    @Test
    void clusterSeedsEachGetTheCredentials() {
        RedisUrl url = RedisUrl.parse("redis-cluster://:pw@10.0.0.1:7000,10.0.0.2:7001");
        assertThat(url.mode()).isEqualTo(RedisUrl.Mode.CLUSTER);
        assertThat(url.nodes()).containsExactly("redis://:pw@10.0.0.1:7000", "redis://:pw@10.0.0.2:7001");
    }

    @Test
    void theCredentialsAreKnownToTheLogsRedaction() {
        assertThat(RedisUrl.credentials("rediss-cluster://:s3cret-token@h1:1,h2:2")).isEqualTo(":s3cret-token");
        assertThat(RedisUrl.credentials("redis://user:pw@h:1/0")).isEqualTo("user:pw");
        assertThat(RedisUrl.credentials("redis://h:1")).isNull();
    }

    @Test
    void refusesWhatNoModeReads() {
        for (Map.Entry<String, String> bad : Map.of(
                "memcached://h:1", "unknown scheme",
                "redis://h1:1,h2:2", "several hosts need",
                "redis-sentinel://h1:1,h2:2", "master set's name is missing",
                "redis-cluster://h1:1/0", "one database",
                "redis://h:99999", "out of range",
                "redis://h:1/x", "must be a number",
                "redis://:pa/ss@h:1", "host:port").entrySet()) {
            assertThatThrownBy(() -> RedisUrl.parse(bad.getKey())).as(bad.getKey()).hasMessageContaining(bad.getValue())
                    .message().doesNotContain("pa/ss");
        }
    }

    @Test
    void theConfigurationRefusesABadUrlNamingTheSettingAndNotQuotingIt() {
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_ACCOUNTS_REDIS_URL", "redis-sentinel://:secret@h1:1,h2:2")::get)
                .load(null)).hasMessageStartingWith("accounts.redis_url (GATEWAY_ACCOUNTS_REDIS_URL): the master set's name is missing")
                .message().doesNotContain("secret");
    }

    @Test
    void unsetSettingsFollowTheMode() throws IOException {
        RedisSettings unset = RedisSettings.of(new ConfigLoader(Map.<String, String>of()::get).load(null).settings());
        assertThat(List.of(unset.replicaAcks(RedisUrl.Mode.STANDALONE), unset.replicaAcks(RedisUrl.Mode.SENTINEL),
                unset.replicaAcks(RedisUrl.Mode.CLUSTER))).containsExactly(0, 1, 1);
        assertThat(List.of(unset.failoverWaitMs(RedisUrl.Mode.STANDALONE), unset.failoverWaitMs(RedisUrl.Mode.CLUSTER)))
                .containsExactly(1000L, 5000L);
        RedisSettings set = RedisSettings.of(new ConfigLoader(Map.of("GATEWAY_ACCOUNTS_REDIS_REPLICA_ACKS", "2",
                "GATEWAY_ACCOUNTS_REDIS_FAILOVER_WAIT_SECONDS", "2.5")::get).load(null).settings());
        assertThat(set.replicaAcks(RedisUrl.Mode.STANDALONE)).isEqualTo(2);
        assertThat(set.failoverWaitMs(RedisUrl.Mode.SENTINEL)).isEqualTo(2500);
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_ACCOUNTS_REDIS_REPLICA_ACKS", "17")::get).load(null))
                .hasMessageContaining("accounts.redis_replica_acks");
    }
}
