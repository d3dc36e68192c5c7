/**
 * People and workloads authenticated by an identity provider (docs/identity/README.md): what the console's sign-in,
 * callers' identity-provider tokens and SCIM share: {@link dev.modelgateway.identity.Claims} (a token's claims and the
 * configuration's claim rules), {@link dev.modelgateway.identity.RoleMapping} (claims to roles),
 * {@link dev.modelgateway.identity.JwtShape} (whether a credential is a JWT, which is then never looked up as a key),
 * {@link dev.modelgateway.identity.SignedJwts} (a JWT's signature and time, iss and aud claims checked with
 * nimbus-jose-jwt), the issuers' {@link dev.modelgateway.identity.Discovery} documents and
 * {@link dev.modelgateway.identity.JwksCache} signing keys, fetched with the Vert.x HTTP client
 * ({@link dev.modelgateway.identity.IdentityHttp}).
 *
 * <p>May import access, accounts, config, error, json, net, time. Runs on the event loop: HTTP is Vert.x's, the
 * signature checks are CPU only.
 */
package dev.modelgateway.identity;
