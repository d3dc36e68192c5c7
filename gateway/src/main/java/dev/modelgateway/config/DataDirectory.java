package dev.modelgateway.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * Where the gateway keeps its state when the configuration does not say ({@code server.data_dir}): the SQLite database
 * and the ledger's journal default to it. A service manager's state directory comes first (systemd's
 * {@code StateDirectory=} sets {@code $STATE_DIRECTORY}, systemd.exec(5)), then the launcher's choice (the release
 * archive's {@code bin/model-gateway} passes {@code -D}{@value #LAUNCHER_PROPERTY} with the XDG Base Directory
 * specification's {@code $XDG_DATA_HOME/model-gateway}), then {@code ./data} (a source checkout's {@code ./gw}). The
 * launcher's choice is a default, not the environment variable, so that a file's {@code server.data_dir} still wins.
 */
final class DataDirectory {
    static final String LAUNCHER_PROPERTY = "gateway.default_data_dir";
    static final String SOURCE_CHECKOUT = "./data";

    private DataDirectory() {
    }

    /** Fills {@code server.data_dir} and the settings that default into it when the file and environment left them unset. */
    static void fillDefaults(Map<Setting, Object> values, Function<String, String> env) {
        String dir = (String) values.get(Settings.SERVER_DATA_DIR);
        if (dir == null) dir = byDefault(env, System.getProperty(LAUNCHER_PROPERTY));
        values.put(Settings.SERVER_DATA_DIR, dir);
        if (values.get(Settings.ACCOUNTS_DATABASE_URL) == null) {
            values.put(Settings.ACCOUNTS_DATABASE_URL, "jdbc:sqlite:" + Path.of(dir).resolve("gateway.db"));
        }
        if (values.get(Settings.ACCOUNTS_LEDGER_JOURNAL_DIR) == null) {
            values.put(Settings.ACCOUNTS_LEDGER_JOURNAL_DIR, Path.of(dir).resolve("journal").toString());
        }
    }

    static String byDefault(Function<String, String> env, String launcherChoice) {
        String state = env.apply("STATE_DIRECTORY");
        // several directories are colon-separated, in the unit's order: the first is the gateway's
        if (state != null && !state.isBlank()) return state.split(":", 2)[0];
        if (launcherChoice != null && !launcherChoice.isBlank()) return launcherChoice;
        return SOURCE_CHECKOUT;
    }
}
