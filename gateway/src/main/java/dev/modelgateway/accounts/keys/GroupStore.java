package dev.modelgateway.accounts.keys;

import dev.modelgateway.store.Sql;
import dev.modelgateway.store.TimeOrderedId;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The {@code scim_groups} and {@code scim_group_members} tables (V23). Blocking: call it from a worker thread. */
public final class GroupStore {
    private static final String COLUMNS = "g.id, g.display_name, g.external_id, g.created_at_ms, g.updated_at_ms";

    private final Sql db;

    public GroupStore(Sql db) {
        this.db = db;
    }

    /** A new group with these members (user ids that exist: the caller checks). */
    public Group create(String displayName, String externalId, Collection<String> members, Instant now) throws SQLException {
        Group group = new Group("grp_" + TimeOrderedId.next().replace("-", ""), displayName, externalId, List.copyOf(new LinkedHashSet<>(members)), now, now);
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO scim_groups (id, display_name, external_id, created_at_ms,"
                    + " updated_at_ms) VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, group.id());
                ps.setString(2, displayName);
                ps.setString(3, externalId);
                ps.setLong(4, now.toEpochMilli());
                ps.setLong(5, now.toEpochMilli());
                return ps.executeUpdate();
            }
        });
        setMembers(group.id(), group.members());
        return group;
    }

    /** Writes the name, external id and members; false when there is no such group. */
    public boolean update(Group group, Instant now) throws SQLException {
        boolean found = db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE scim_groups SET display_name = ?, external_id = ?, updated_at_ms = ?"
                    + " WHERE id = ?")) {
                ps.setString(1, group.displayName());
                ps.setString(2, group.externalId());
                ps.setLong(3, now.toEpochMilli());
                ps.setString(4, group.id());
                return ps.executeUpdate() > 0;
            }
        });
        if (found) setMembers(group.id(), group.members());
        return found;
    }

    /** Takes the group's row lock for the transaction (a no-op update): two changes at once both stay. */
    public boolean lock(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE scim_groups SET updated_at_ms = updated_at_ms WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    private void setMembers(String groupId, List<String> members) throws SQLException {
        db.call(c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM scim_group_members WHERE group_id = ?");
                 PreparedStatement ins = c.prepareStatement("INSERT INTO scim_group_members (group_id, user_id) VALUES (?, ?)")) {
                del.setString(1, groupId);
                del.executeUpdate();
                for (String m : new LinkedHashSet<>(members)) {
                    ins.setString(1, groupId);
                    ins.setString(2, m);
                    ins.addBatch();
                }
                if (!members.isEmpty()) ins.executeBatch();
                return null;
            }
        });
    }

    public Optional<Group> find(String id) throws SQLException {
        List<Group> found = select("SELECT " + COLUMNS + " FROM scim_groups g WHERE g.id = ?", id);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    public Optional<Group> findByName(String displayName) throws SQLException {
        List<Group> found = select("SELECT " + COLUMNS + " FROM scim_groups g WHERE g.display_name = ?", displayName);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /** Groups by display name ({@code displayName} null: all), {@code limit} at most from {@code offset}. */
    public List<Group> list(String displayName, int offset, int limit) throws SQLException {
        String where = displayName == null ? "" : " WHERE g.display_name = ?";
        return select("SELECT " + COLUMNS + " FROM scim_groups g" + where + " ORDER BY g.display_name LIMIT " + limit + " OFFSET " + offset,
                displayName);
    }

    public int count(String displayName) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM scim_groups g"
                    + (displayName == null ? "" : " WHERE g.display_name = ?"))) {
                if (displayName != null) ps.setString(1, displayName);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    /** The groups {@code userId} is a member of, by display name. */
    public List<Person.Membership> groupsOf(String userId) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT g.id, g.display_name FROM scim_group_members m"
                    + " JOIN scim_groups g ON g.id = m.group_id WHERE m.user_id = ? ORDER BY g.display_name")) {
                ps.setString(1, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Person.Membership> out = new ArrayList<>();
                    while (rs.next()) out.add(new Person.Membership(rs.getString(1), rs.getString(2)));
                    return out;
                }
            }
        });
    }

    /** Those of {@code ids} that are users. */
    public Set<String> existingUsers(Collection<String> ids) throws SQLException {
        Set<String> found = new LinkedHashSet<>();
        if (ids.isEmpty()) return found;
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM users WHERE id = ?")) {
                for (String id : ids) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) found.add(id);
                    }
                }
                return null;
            }
        });
        return found;
    }

    /** Deletes the group and its memberships. */
    public boolean delete(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement members = c.prepareStatement("DELETE FROM scim_group_members WHERE group_id = ?");
                 PreparedStatement ps = c.prepareStatement("DELETE FROM scim_groups WHERE id = ?")) {
                members.setString(1, id);
                members.executeUpdate();
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** Takes a deleted user out of every group. */
    public void forgetUser(String userId) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM scim_group_members WHERE user_id = ?")) {
                ps.setString(1, userId);
                return ps.executeUpdate();
            }
        });
    }

    private List<Group> select(String sql, String param) throws SQLException {
        List<Group> groups = db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                if (param != null) ps.setString(1, param);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Group> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new Group(rs.getString(1), rs.getString(2), rs.getString(3), List.of(),
                                Instant.ofEpochMilli(rs.getLong(4)), Instant.ofEpochMilli(rs.getLong(5))));
                    }
                    return out;
                }
            }
        });
        List<Group> withMembers = new ArrayList<>();
        for (Group g : groups) withMembers.add(new Group(g.id(), g.displayName(), g.externalId(), members(g.id()), g.createdAt(), g.updatedAt()));
        return withMembers;
    }

    private List<String> members(String groupId) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT user_id FROM scim_group_members WHERE group_id = ? ORDER BY user_id")) {
                ps.setString(1, groupId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<String> out = new ArrayList<>();
                    while (rs.next()) out.add(rs.getString(1));
                    return out;
                }
            }
        });
    }
}
