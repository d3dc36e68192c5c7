package dev.modelgateway.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code server.master_key} with {@code server.previous_master_keys}: read, shown masked, and what a reload applies. */
class MasterKeysSettingTest {
    @TempDir
    Path dir;

    @Test
    void thePreviousKeysAreAListFromTheFileOrTheEnvironmentShownMasked() throws Exception {
        GatewayConfig c = load("server: {master_key: pk-new-master-1, previous_master_keys: [pk-old-master-1, pk-older-master]}\n",
                Map.of());
        assertThat(c.masterKeys()).containsExactly("pk-new-master-1", "pk-old-master-1", "pk-older-master");
        assertThat(c.settings().shown(Settings.SERVER_PREVIOUS_MASTER_KEYS)).isEqualTo(List.of("****er-1", "****ster"));
        assertThat(c.settings().shown(Settings.SERVER_MASTER_KEY)).isEqualTo("****er-1");

        GatewayConfig fromEnv = load("", Map.of("GATEWAY_SERVER_MASTER_KEY", "pk-a-master-key",
                "GATEWAY_SERVER_PREVIOUS_MASTER_KEYS", "pk-b-master-key, pk-c-master-key"));
        assertThat(fromEnv.masterKeys()).containsExactly("pk-a-master-key", "pk-b-master-key", "pk-c-master-key");
        assertThat(load("", Map.of()).masterKeys()).isEmpty();
    }

    @Test
    void previousKeysWithoutAMasterKeyAreRefused() {
        assertThatThrownBy(() -> load("server: {previous_master_keys: [pk-old-master-1]}\n", Map.of()))
                .hasMessageContaining("server.previous_master_keys (GATEWAY_SERVER_PREVIOUS_MASTER_KEYS) is set but server.master_key")
                .hasMessageNotContaining("pk-old-master-1");
    }

    @Test
    void aReloadAppliesNewKeysButNotTheRemovalOfTheLastOne() throws Exception {
        GatewayConfig running = load("server: {master_key: pk-first-master}\n", Map.of());
        GatewayConfig rotating = load("server: {master_key: pk-second-master, previous_master_keys: [pk-first-master]}\n", Map.of());
        assertThat(running.settings().restartNeeded(rotating.settings())).isEmpty();
        GatewayConfig during = running.withReloadable(rotating);
        assertThat(during.masterKeys()).containsExactly("pk-second-master", "pk-first-master");
        GatewayConfig after = during.withReloadable(load("server: {master_key: pk-second-master}\n", Map.of()));
        assertThat(after.masterKeys()).containsExactly("pk-second-master");

        GatewayConfig none = load("", Map.of());
        assertThat(after.settings().restartNeeded(none.settings())).containsExactly("server.master_key");
        assertThat(after.withReloadable(none).masterKeys()).as("kept: the admin API stays up").containsExactly("pk-second-master");
    }

    private GatewayConfig load(String yaml, Map<String, String> env) throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), yaml);
        return new ConfigLoader(env::get).load(file);
    }
}
