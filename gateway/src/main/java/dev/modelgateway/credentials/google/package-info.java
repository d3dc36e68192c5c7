/**
 * Google's credentials (docs/clouds.md, "Google credentials"): a provider's {@code google} block
 * ({@link dev.modelgateway.config.GoogleCredentialsSettings}) becomes an OAuth access token source built on
 * google-auth-library ({@link dev.modelgateway.credentials.google.GoogleTokenSources}): application default
 * credentials, a service-account key (JWT-bearer grant), the metadata server (GKE workload identity) and workload
 * identity federation. The library only mints tokens; {@link dev.modelgateway.credentials.google.GoogleTokenCache}
 * holds one {@link dev.modelgateway.credentials.RefreshingCredential} per identity, which decides when to refresh on
 * the gateway's clock. Blocking (file reads, the token request) happens only in a source's {@code fetch}, on a worker
 * thread. May import {@code config} and {@code credentials}.
 */
package dev.modelgateway.credentials.google;
