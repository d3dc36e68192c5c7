/**
 * The usage ledger: a call's row ({@code LedgerEntry}), journaled into a memory-mapped file before the answer
 * ends ({@code LedgerJournal}, {@code JournalLine}) and written in batches ({@code LedgerWriter}, {@code Ledger});
 * the spend per holder and period it adds up ({@code SpendTracker}); usage reports, re-pricing and price tables.
 *
 * <p>Uses keys. Blocking: the writer's own thread and worker threads.
 */
package dev.modelgateway.accounts.ledger;
