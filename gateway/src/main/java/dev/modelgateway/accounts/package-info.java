/**
 * Platform API keys, rate limits, budgets and the usage ledger: what a key may do and what it has spent.
 *
 * <p>May import canonical, catalogue, error, store. Blocking JDBC runs on worker threads (store.SqlWork) and the
 * ledger writer's own thread; Redis runs on the event loops through one pipelined connection each
 * (docs/accounts.md).
 */
package dev.modelgateway.accounts;
