package dev.modelgateway.http;

import dev.modelgateway.access.Principal;
import dev.modelgateway.accounts.ApiKey;

/**
 * Who is behind a request: the {@link Principal} it authenticated as and, when the credential may call models, the
 * platform key its calls are admitted, limited and billed under (null for an admin key or a console session, which
 * administer the gateway but call no model).
 */
public record Caller(ApiKey key, Principal principal) {
    /** A platform key (or the master key) as the caller. */
    public Caller(ApiKey key) {
        this(key, key.master() ? Principal.MASTER : Principal.apiKey(key.id(), key.name()));
    }

    /**
     * The user the calls are billed to (the ledger's {@code user_id}): the person or workload behind an identity
     * provider's token, else the platform key's owner; null for a key that belongs to nobody.
     */
    public String userId() {
        if (principal.kind() == Principal.Kind.USER) return principal.id();
        return key == null ? null : key.userId();
    }

    public String keyId() {
        return key == null ? principal.id() : key.id();
    }
}
