/**
 * The accounts and admin API under {@code /api/v1} (docs/accounts.md, "HTTP API"; docs/configuration.md,
 * "Hot reload"): keys, teams, usage, rate limits, re-pricing, alerts, the audit log, the configuration in force and
 * its reload. {@link dev.modelgateway.endpoint.admin.AdminAccess} is the one authorization rule of the admin routes;
 * {@code server/GatewayRouter} lists every route. Bodies come read by the gateway's body reader, errors go out
 * through {@code Exchange.fail} in {@code ErrorShape.ADMIN}.
 */
package dev.modelgateway.endpoint.admin;
