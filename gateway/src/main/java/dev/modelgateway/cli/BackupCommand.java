package dev.modelgateway.cli;

import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.store.Database;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code gateway backup --to FILE}: a copy of the SQLite database, taken while the gateway serves
 * ({@link Database#backup}); PostgreSQL is backed up with {@code pg_dump} (docs/operations/backup-and-restore.md).
 */
public final class BackupCommand {
    private static final String HELP = """
            usage: backup --to FILE   copy the SQLite database (accounts.database_url) to FILE, a new file, while the
                                      gateway serves; restore by copying FILE back (docs/operations/backup-and-restore.md)""";

    private BackupCommand() {
    }

    /** The process exit code: 0 when the copy is complete under its name. */
    public static int run(List<String> args, AccountsConfig config, PrintStream out, PrintStream err) {
        if (args.size() != 2 || !args.getFirst().equals("--to")) {
            err.println(HELP);
            return KeysCommand.USAGE;
        }
        Path file = Path.of(args.get(1));
        try {
            Database.backup(config.databaseUrl(), file);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return KeysCommand.FAILED;
        } catch (SQLException | IOException e) {
            err.println("error: the backup failed: " + e);
            return KeysCommand.FAILED;
        }
        out.println("backed up " + config.databaseUrl().substring("jdbc:sqlite:".length()) + " to " + file);
        return KeysCommand.OK;
    }
}
