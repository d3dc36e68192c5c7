package dev.modelgateway.accounts.keys;

import dev.modelgateway.access.Grant;

import java.time.Instant;
import java.util.List;

/**
 * A person or a workload the gateway knows (docs/identity/README.md): provisioned when a mapping rule matched at a
 * sign-in or on a token, or by SCIM; {@code grants} are the roles last mapped. An inactive user has no session and
 * no working key.
 */
public record User(String id, String userName, String email, String displayName, String externalId, boolean active,
                   List<Grant> grants, Instant createdAt, Instant updatedAt) {
    public User {
        grants = grants == null ? List.of() : List.copyOf(grants);
    }

    /** What a person reads: the display name, else the email, else the user name. */
    public String shown() {
        return displayName != null ? displayName : email != null ? email : userName;
    }
}
