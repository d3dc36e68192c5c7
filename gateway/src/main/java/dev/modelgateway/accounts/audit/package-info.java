/**
 * The audit log of administrative changes and the alerts (budget thresholds crossed, models used without a price),
 * their settings and their delivery to a webhook ({@code AlertSender}).
 *
 * <p>Uses keys and ledger. Blocking where it touches the database.
 */
package dev.modelgateway.accounts.audit;
