package dev.modelgateway.credentials;

import java.time.Instant;

/**
 * Whether a credential can be had now: what {@code /admin/config} shows and what keeps routing away from a
 * deployment whose credentials cannot be refreshed.
 *
 * @param ready   a valid credential is held (or none was asked for yet)
 * @param problem the last refresh's failure, without any secret; null when the last refresh succeeded
 * @param since   when the last refresh (or failure) happened; null before the first
 */
public record CredentialHealth(boolean ready, String problem, Instant since) {
}
