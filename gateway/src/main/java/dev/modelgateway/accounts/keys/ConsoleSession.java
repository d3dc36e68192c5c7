package dev.modelgateway.accounts.keys;

import java.time.Instant;

/**
 * A person's console session ({@code console_sessions}, V21); {@code id} is the SHA-256 of the cookie's value, and
 * {@code idToken} the logout's {@code id_token_hint}.
 */
public record ConsoleSession(String id, String userId, String provider, Instant createdAt, Instant lastSeen, Instant expiresAt,
                             String csrfToken, String idToken) {
}
