/**
 * SCIM 2.0 provisioning under {@code /api/v1/scim/v2/} (RFC 7643, RFC 7644; docs/identity/scim.md): the discovery
 * documents, {@code Users} and {@code Groups} with list and filter, create, replace, PATCH and delete. The resources
 * are the accounts' users and groups, changed through {@code accounts/Administration} (each change with its audit
 * entry); errors go out in {@code ErrorShape.SCIM}. Routes are declared in {@code server/GatewayRouter} with
 * {@code Permission.SCIM}.
 */
package dev.modelgateway.endpoint.scim;
