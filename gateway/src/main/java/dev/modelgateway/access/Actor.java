package dev.modelgateway.access;

/**
 * Who made a change, as the audit log keeps it (docs/identity/audit.md): the kind of credential, its id (a user's,
 * an admin key's, a platform key's, {@code master}, {@code cli:<login>} or {@code config-file}), a name a person reads
 * (an email, a key's name), the role it acted under ({@link Grant#label()}) and the address the request came from
 * (the TCP peer, never a forwarded header). Null fields are unknown.
 */
public record Actor(String kind, String id, String name, String role, String source) {
    /** Someone running {@code ./gw keys} on the host. */
    public static Actor cli(String login) {
        return new Actor("cli", "cli:" + login, login, "host_shell", null);
    }

    /** The configuration watcher, for a reload it applied. */
    public static Actor system(String id) {
        return new Actor("system", id, id, null, null);
    }
}
