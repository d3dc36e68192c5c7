package dev.modelgateway.accounts.keys;

import java.time.Instant;
import java.util.List;

/**
 * A group an identity provider provisions by SCIM (docs/identity/scim.md): its members are user ids; its display
 * name is what the role mappings see in a member's {@code groups} claim.
 */
public record Group(String id, String displayName, String externalId, List<String> members, Instant createdAt, Instant updatedAt) {
    public Group {
        members = members == null ? List.of() : List.copyOf(members);
    }
}
