package dev.modelgateway.cli;

import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.accounts.DatabaseAdministration;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code gateway journal replay}: writes the ledger journal's rows that the database lacks, after a restore from a
 * backup or a failover to an asynchronous standby ({@link DatabaseAdministration#replayJournal},
 * docs/operations/backup-and-restore.md).
 */
public final class JournalCommand {
    private static final String HELP = """
            usage: journal replay   write the rows of the ledger journal (accounts.ledger_journal_dir) that the database
                                    (accounts.database_url) lacks: after restoring a backup, or a failover that lost
                                    rows; rows it has are skipped by their id, so it is safe to run again""";

    private JournalCommand() {
    }

    /** The process exit code. */
    public static int run(List<String> args, AccountsConfig config, PrintStream out, PrintStream err) {
        if (!args.equals(List.of("replay"))) {
            err.println(HELP);
            return KeysCommand.USAGE;
        }
        KeysCommand.quietStoreLogs();
        try (DatabaseAdministration db = DatabaseAdministration.open(config)) {
            DatabaseAdministration.JournalReplay done = db.replayJournal(config.ledgerJournalDir());
            out.println("journal replay: " + done.rows() + " usage rows in " + done.segments() + " segment(s) of this"
                    + " database in " + config.ledgerJournalDir() + "; " + done.added() + " of them added to the ledger,"
                    + " the others were there");
            return KeysCommand.OK;
        } catch (SQLException | IOException | RuntimeException e) {
            err.println("error: the journal replay failed: " + e);
            return KeysCommand.FAILED;
        }
    }
}
