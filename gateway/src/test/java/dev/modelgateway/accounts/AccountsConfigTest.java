package dev.modelgateway.accounts;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AccountsConfigTest {

    @Test
    void defaults() {
        AccountsConfig c = new AccountsConfig(null, " ", "");
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:./data/gateway.db");
        assertThat(c.redisUrl()).isNull();
        assertThat(c.masterKey()).isNull();
        assertThat(c.redisKeyPrefix()).isEqualTo("mg:");
    }

    @Test
    void redisKeyPrefixComesOutOfTheUrl() {
        AccountsConfig c = new AccountsConfig(null, "redis://:pw@cache:6379/2?key_prefix=prod:&maxPoolSize=9", null);
        assertThat(c.redisUrl()).isEqualTo("redis://:pw@cache:6379/2?maxPoolSize=9");
        assertThat(c.redisKeyPrefix()).isEqualTo("prod:");
        assertThat(new AccountsConfig(null, "redis://cache?key_prefix=a:", null).redisUrl()).isEqualTo("redis://cache");
        assertThat(new AccountsConfig(null, "redis://cache?key_prefix=a:", null, "explicit:").redisKeyPrefix())
                .isEqualTo("explicit:");
    }
}
