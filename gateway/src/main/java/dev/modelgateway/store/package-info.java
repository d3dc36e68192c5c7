/**
 * The JDBC database (SQLite embedded, PostgreSQL shared) with its Flyway migrations and pooled connections.
 *
 * <p>Imports nothing of the gateway. Blocking: used only from worker threads.
 */
package dev.modelgateway.store;
