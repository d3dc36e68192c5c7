/**
 * Platform API keys and teams, rate limits, budgets with a period, alerts, the audit log and the usage ledger
 * (journaled before the answer ends, replayed after a crash): what a key may do and what it has spent.
 *
 * <p>This package is the facade ({@link dev.modelgateway.accounts.Accounts}) and the accounts' face to the rest of
 * the gateway ({@code ApiKey}, {@code UsageRecord}, {@code Admission}, {@code AccountsConfig}); the parts live in
 * {@code keys}, {@code ledger}, {@code limits} and {@code audit}, which depend downward only and never on the
 * facade, and whose storage nothing outside this package touches (architecture/LayoutTest).
 *
 * <p>May import access, canonical, catalogue, error, json, net, observability, store. Blocking JDBC runs on worker threads (store.SqlWork) and the
 * ledger writer's own thread; the journal copies a row into a memory-mapped segment on the caller's thread and
 * syncs it on its own; Redis runs on the event loops through one pipelined connection each (docs/accounts.md).
 */
package dev.modelgateway.accounts;
