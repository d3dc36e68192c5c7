package dev.modelgateway.accounts;

import dev.modelgateway.access.Grant;
import dev.modelgateway.accounts.keys.ConsoleSession;
import dev.modelgateway.accounts.keys.PendingSignIn;
import dev.modelgateway.accounts.keys.SessionStore;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.accounts.keys.UserStore;
import dev.modelgateway.store.Sql;
import io.vertx.core.Future;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * People's console sign-ins and sessions in the accounts database (docs/identity/sso.md): pending sign-ins, the
 * user a sign-in finds, links or provisions, and the sessions it opens. Each operation on a worker thread.
 */
public final class SignIns {
    /** What a sign-in came to: the user, or why there is none. */
    public enum Outcome { SIGNED_IN, NO_ROLE, INACTIVE, NAME_TAKEN, NO_USER_NAME }

    public record Result(Outcome outcome, User user) {
    }

    /** What an identity provider said of a person. */
    public record Person(String issuer, String subject, String userName, String email, String displayName, List<Grant> grants) {
    }

    /** A live session and its user, as last read. */
    public record Live(ConsoleSession session, User user) {
    }

    private final Blocking blocking;
    private final SessionStore store;
    private final UserStore users;
    private final InstantSource clock;

    SignIns(Blocking blocking, Sql db, InstantSource clock) {
        this.blocking = blocking;
        this.store = new SessionStore(db);
        this.users = new UserStore(db);
        this.clock = clock;
    }

    public Future<Void> begin(String stateHash, PendingSignIn pending) {
        Instant now = clock.instant();
        return blocking.run(() -> {
            store.begin(stateHash, pending, now);
            return null;
        });
    }

    /** Takes a pending sign-in once (see {@link SessionStore#take}). */
    public Future<Optional<PendingSignIn>> take(String stateHash) {
        return blocking.run(() -> store.take(stateHash));
    }

    /**
     * The person: by their (issuer, subject) link; else a SCIM-provisioned user of that user name not yet linked to
     * this issuer (linked now); else provisioned just in time, only if they have a role. Their roles, mapped again
     * from this sign-in's claims, are stored. A user named so who is not SCIM's, or is linked to this issuer already
     * under another subject, is not taken over.
     */
    public Future<Result> signIn(Person p) {
        Instant now = clock.instant();
        return blocking.run(() -> {
            Optional<User> user = users.findByIdentity(p.issuer(), p.subject());
            if (user.isEmpty() && p.userName() != null) {
                Optional<User> named = users.findByUserName(p.userName());
                if (named.isPresent()) {
                    if (named.get().externalId() == null || store.linked(named.get().id(), p.issuer())) {
                        return new Result(Outcome.NAME_TAKEN, null);
                    }
                    users.link(p.issuer(), p.subject(), named.get().id());
                    user = named;
                }
            }
            if (user.isEmpty()) {
                if (p.grants().isEmpty()) return new Result(Outcome.NO_ROLE, null);
                if (p.userName() == null) return new Result(Outcome.NO_USER_NAME, null);
                User created = users.create(p.userName(), p.email(), p.displayName(), null, p.grants(), now);
                users.link(p.issuer(), p.subject(), created.id());
                return new Result(Outcome.SIGNED_IN, created);
            }
            User u = user.get();
            if (!u.active()) return new Result(Outcome.INACTIVE, u);
            User updated = new User(u.id(), u.userName(), p.email() != null ? p.email() : u.email(),
                    p.displayName() != null ? p.displayName() : u.displayName(), u.externalId(), true, p.grants(), u.createdAt(), now);
            users.update(updated, now);
            return new Result(p.grants().isEmpty() ? Outcome.NO_ROLE : Outcome.SIGNED_IN, updated);
        });
    }

    public Future<Void> open(ConsoleSession s) {
        Instant now = clock.instant();
        return blocking.run(() -> {
            store.create(s, now);
            return null;
        });
    }

    /**
     * The session {@code id} and its user, if it is live at {@code now}: not past its absolute expiry, used within
     * {@code idle} (of its stored last use, or {@code seen} when later), its user active with a role. An ended
     * session is deleted; a live one's last use recorded.
     */
    public Future<Optional<Live>> read(String id, Instant seen, Duration idle, Instant now) {
        return blocking.run(() -> {
            Optional<ConsoleSession> s = store.find(id);
            if (s.isEmpty()) return Optional.empty();
            Instant last = seen != null && seen.isAfter(s.get().lastSeen()) ? seen : s.get().lastSeen();
            Optional<User> user = users.find(s.get().userId());
            if (user.isEmpty() || !user.get().active() || user.get().grants().isEmpty()
                    || !now.isBefore(s.get().expiresAt()) || !now.isBefore(last.plus(idle))) {
                store.delete(id);
                return Optional.empty();
            }
            store.seen(id, now);
            return Optional.of(new Live(s.get(), user.get()));
        });
    }

    public Future<Void> end(String id) {
        return blocking.run(() -> {
            store.delete(id);
            return null;
        });
    }
}
