package dev.modelgateway.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code server.data_dir}: where the database and the journal go unless they are set (docs/configuration.md, "Data directory"). */
class DataDirectoryTest {
    @TempDir
    Path dir;

    @Test
    void aSourceCheckoutKeepsItsStateInDotData() throws Exception {
        GatewayConfig c = new ConfigLoader(Map.<String, String>of()::get).load(null);
        assertThat(c.settings().text(Settings.SERVER_DATA_DIR)).isEqualTo("./data");
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:./data/gateway.db");
        assertThat(c.ledgerJournalDir()).isEqualTo(Path.of("./data/journal"));
    }

    @Test
    void theDatabaseAndTheJournalFollowTheDataDirectoryOfTheFile() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "server:\n  data_dir: /srv/gw\n");
        GatewayConfig c = new ConfigLoader(Map.<String, String>of()::get).load(file);
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:/srv/gw/gateway.db");
        assertThat(c.ledgerJournalDir()).isEqualTo(Path.of("/srv/gw/journal"));
    }

    @Test
    void theEnvironmentWinsOverTheFileAndAnExplicitDatabaseOverTheDirectory() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "server:\n  data_dir: /srv/gw\naccounts:\n  database_url: jdbc:postgresql://db/gw\n");
        GatewayConfig c = new ConfigLoader(Map.of("GATEWAY_SERVER_DATA_DIR", "/var/lib/other")::get).load(file);
        assertThat(c.databaseUrl()).isEqualTo("jdbc:postgresql://db/gw");
        assertThat(c.ledgerJournalDir()).isEqualTo(Path.of("/var/lib/other/journal"));
    }

    @Test
    void aServiceStateDirectoryComesBeforeTheLaunchersChoiceWhichComesBeforeDotData() {
        // systemd.exec(5): StateDirectory= sets $STATE_DIRECTORY, colon-separated when the unit names several
        assertThat(DataDirectory.byDefault(Map.of("STATE_DIRECTORY", "/var/lib/model-gateway:/var/lib/x")::get, "/home/u/.local/share/model-gateway"))
                .isEqualTo("/var/lib/model-gateway");
        assertThat(DataDirectory.byDefault(Map.<String, String>of()::get, "/home/u/.local/share/model-gateway"))
                .isEqualTo("/home/u/.local/share/model-gateway");
        assertThat(DataDirectory.byDefault(Map.<String, String>of()::get, null)).isEqualTo("./data");
    }

    @Test
    void aFileDataDirectoryWinsOverTheServiceStateDirectory() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "server:\n  data_dir: /srv/gw\n");
        GatewayConfig c = new ConfigLoader(Map.of("STATE_DIRECTORY", "/var/lib/model-gateway")::get).load(file);
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:/srv/gw/gateway.db");
    }
}
