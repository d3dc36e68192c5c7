/**
 * Who may do what (docs/identity/roles.md): the {@link dev.modelgateway.access.Permission}s every admin, console and
 * SCIM route declares in {@code server/GatewayRouter}, the {@link dev.modelgateway.access.Role}s people hold and the
 * permissions each gives, the {@link dev.modelgateway.access.Principal} a request authenticated as (the break-glass
 * master key, a scoped admin key, a person's console session, a platform key, an identity provider's token) and the
 * {@link dev.modelgateway.access.Actor} the audit log names.
 *
 * <p>Pure values: imports nothing of ours; no I/O.
 */
package dev.modelgateway.access;
