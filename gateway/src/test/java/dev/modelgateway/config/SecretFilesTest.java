package dev.modelgateway.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code ${file:PATH}} references: read on each load, refused naming the field, never shown. */
class SecretFilesTest {
    @TempDir
    Path dir;

    @Test
    void aReferenceIsTheFilesContentWithoutTheNewlineAroundIt() throws Exception {
        Files.writeString(dir.resolve("openai"), "sk-from-a-file-0001\n");
        Files.writeString(dir.resolve("team-key"), "  sk-team-key-0002  ");
        Files.writeString(dir.resolve("master"), "pk-master-from-file-0003");
        GatewayConfig c = load("""
                server:
                  master_key: "${file:%1$s/master}"
                vendors:
                  openai: {api_key: "${file:%1$s/openai}"}
                providers:
                  team:
                    type: openai-compatible
                    base_url: http://p/v1
                    keys: [{key: "${file:${SECRETS}/team-key}", weight: 2}]
                """.formatted(dir), Map.of("SECRETS", dir.toString()));
        assertThat(c.vendor(Vendor.OPENAI).apiKey()).isEqualTo("sk-from-a-file-0001");
        assertThat(c.masterKey()).isEqualTo("pk-master-from-file-0003");
        assertThat(c.routing().providers().get("team").keys().getFirst().value()).isEqualTo("sk-team-key-0002");
        assertThat(c.settings().substitutions().files()).containsExactly(dir.resolve("master"), dir.resolve("openai"),
                dir.resolve("team-key"));
        assertThat(c.secrets()).contains("sk-from-a-file-0001", "pk-master-from-file-0003", "sk-team-key-0002");

        // read again on every load: the file's new content is the next configuration's
        Files.writeString(dir.resolve("openai"), "sk-rotated-0004\n");
        assertThat(load(Files.readString(dir.resolve("gateway.yaml")), Map.of("SECRETS", dir.toString()))
                .vendor(Vendor.OPENAI).apiKey()).isEqualTo("sk-rotated-0004");
    }

    @Test
    void aFileThatCannotBeReadIsRefusedNamingTheField() throws Exception {
        Files.createDirectory(dir.resolve("a-directory"));
        assertThatThrownBy(() -> load("vendors:\n  openai: {api_key: \"${file:%s/missing}\"}\n".formatted(dir), Map.of()))
                .hasMessage("vendors.openai.api_key: cannot read the secret file ${file:%s/missing}: no such file", dir);
        assertThatThrownBy(() -> load("""
                providers:
                  team: {type: openai-compatible, base_url: http://p/v1, keys: [k1, {key: "${file:%s/missing}"}]}
                """.formatted(dir), Map.of()))
                .hasMessage("providers.team.keys[1].key: cannot read the secret file ${file:%s/missing}: no such file", dir);
        assertThatThrownBy(() -> load("server: {master_key: \"${file:%s/a-directory}\"}\n".formatted(dir), Map.of()))
                .hasMessageStartingWith("server.master_key: cannot read the secret file ${file:%s/a-directory}: ", dir);
        Files.write(dir.resolve("huge"), new byte[SecretFiles.MAX_BYTES + 1]);
        assertThatThrownBy(() -> load("vendors:\n  gemini: {api_key: \"${file:%s/huge}\"}\n".formatted(dir), Map.of()))
                .hasMessageContaining("vendors.gemini.api_key: the secret file").hasMessageContaining("at most 65536");
    }

    @Test
    void anEmptyFileIsAnUnsetValue() throws Exception {
        Files.writeString(dir.resolve("previous"), "\n");
        GatewayConfig c = load("server: {master_key: pk-the-master-key, previous_master_keys: \"${file:%s/previous}\"}\n"
                .formatted(dir), Map.of());
        assertThat(c.masterKeys()).containsExactly("pk-the-master-key");
        assertThat(c.settings().substitutions().files()).as("watched all the same").containsExactly(dir.resolve("previous"));
        Files.writeString(dir.resolve("previous"), "pk-old-master-1,pk-old-master-2\n");
        assertThat(load(Files.readString(dir.resolve("gateway.yaml")), Map.of()).masterKeys())
                .containsExactly("pk-the-master-key", "pk-old-master-1", "pk-old-master-2");
    }

    @Test
    void theValueIsShownAsItsReferenceNeverAsItself() throws Exception {
        Files.writeString(dir.resolve("db"), "hunter2-Secret\n");
        assertThatThrownBy(() -> load("server:\n  port: \"${file:%s/db}\"\n".formatted(dir), Map.of()))
                .hasMessageContaining("${file:" + dir.resolve("db") + "}").hasMessageNotContaining("hunter2");
        GatewayConfig c = load("""
                providers:
                  proxy: {type: openai-compatible, base_url: http://p/v1}
                models:
                  team/m:
                    price: {input: 1, output: 1}
                    deployments: [{provider: proxy, model: m, region: "${file:%s/db}"}]
                """.formatted(dir), Map.of());
        var shown = JsonNodeFactory.instance.objectNode().put("region", c.routing().deployments().get("team/m").getFirst().region());
        assertThat(c.settings().substitutions().hideIn(shown).toString()).isEqualTo("{\"region\":\"${file:" + dir.resolve("db") + "}\"}");
    }

    private GatewayConfig load(String yaml, Map<String, String> env) throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), yaml);
        return new ConfigLoader(env::get).load(file);
    }
}
