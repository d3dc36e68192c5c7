package dev.modelgateway.accounts.keys;

import java.time.Instant;

/**
 * A console sign-in waiting for the identity provider's answer ({@code sign_in_states}, V21): the hash of the cookie
 * binding it to the browser, the provider, the PKCE verifier and the nonce.
 */
public record PendingSignIn(String bindingHash, String provider, String codeVerifier, String nonce, Instant expiresAt) {
}
