/**
 * The command-line adapters: {@code ./gw keys} ({@link dev.modelgateway.cli.KeysCommand}) and {@code journal replay}
 * ({@link dev.modelgateway.cli.JournalCommand}), which parse their flags, hand the work to
 * {@code accounts.DatabaseAdministration} and print the result; {@code backup} ({@link dev.modelgateway.cli.BackupCommand}),
 * which copies the SQLite database with {@code store.Database.backup}.
 *
 * <p>May import accounts, catalogue, error, json, and store for the SQLite backup. Blocking: it runs in its own process, not on an event loop.
 */
package dev.modelgateway.cli;
