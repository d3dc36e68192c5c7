package dev.modelgateway.accounts.keys;

import java.util.List;

/**
 * A user as SCIM shows it (RFC 7643 §4.1): the record, the given and family names kept as sent, and the groups it is
 * a member of (their ids and display names).
 */
public record Person(User user, String givenName, String familyName, List<Membership> groups) {
    public Person {
        groups = groups == null ? List.of() : List.copyOf(groups);
    }

    /** A group the user belongs to. */
    public record Membership(String groupId, String displayName) {
    }

    public List<String> groupNames() {
        return groups.stream().map(Membership::displayName).toList();
    }

    /** The fields a provisioning client sets; {@code grants} and the times stay the store's. */
    public Person with(String userName, String givenName, String familyName, String displayName, String email,
                       String externalId, boolean active) {
        User u = new User(user.id(), userName, email, displayName, externalId, active, user.grants(), user.createdAt(), user.updatedAt());
        return new Person(u, givenName, familyName, groups);
    }
}
