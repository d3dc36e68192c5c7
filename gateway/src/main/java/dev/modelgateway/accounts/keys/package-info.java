/**
 * Keys and teams: their settings (allow-lists, per-minute limits, per-model limits, budgets and their period,
 * concurrency, expiry), the secrets' hashing ({@code KeyToken}), their tables ({@code KeyStore}, {@code TeamStore})
 * and the validation of settings sent by the admin API or the CLI ({@code KeyRequests}).
 *
 * <p>Uses no other accounts part. Blocking where it touches the database.
 */
package dev.modelgateway.accounts.keys;
