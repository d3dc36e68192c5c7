package dev.modelgateway;

import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.sim.SimKeys;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's well-known key administers the gateway and its media fetches may reach loopback, so the demo must
 * not be reachable from other hosts nor share the database of {@code ./gw serve}.
 */
class DemoConfigTest {
    @Test
    void demoListensOnLoopbackWithItsOwnDatabaseWhateverServeIsConfiguredFor() throws Exception {
        GatewayConfig serve = new ConfigLoader(Map.of("GATEWAY_SERVER_HOST", "0.0.0.0", "GATEWAY_SERVER_PORT", "9999")::get).load(null);
        assertThat(serve.host()).isEqualTo("0.0.0.0");

        GatewayConfig demo = Demo.config(serve, "http://127.0.0.1:1234", SimKeys.defaults());

        assertThat(demo.host()).isEqualTo("127.0.0.1");
        assertThat(demo.port()).isEqualTo(9999);
        assertThat(demo.databaseUrl()).isEqualTo("jdbc:sqlite:./data/demo.db").isNotEqualTo(serve.databaseUrl());
        assertThat(demo.masterKey()).isEqualTo(Demo.DEMO_KEY);
    }
}
