package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.http.Caller;
import dev.modelgateway.identity.JwtShape;
import dev.modelgateway.identity.TokenCallers;
import io.vertx.core.Future;

/**
 * Which kind of credential a bearer token is, and who checks it (docs/identity/README.md): a JWT only ever as an
 * identity provider's token (never looked up as a key: aisix PR #825 did, and so accepted a forged token that
 * happened to collide with nothing), checked by {@link TokenCallers} (docs/identity/caller-tokens.md); anything else
 * by the accounts (the master keys, then the stored keys).
 */
final class Credentials implements Authenticator {
    private final Accounts accounts;
    private final TokenCallers tokens;

    Credentials(Accounts accounts, TokenCallers tokens) {
        this.accounts = accounts;
        this.tokens = tokens;
    }

    @Override
    public Future<Caller> authenticate(String bearerToken) {
        if (JwtShape.looksLikeJwt(bearerToken)) {
            return tokens.authenticate(bearerToken).map(admitted -> new Caller(admitted.key(), admitted.principal()));
        }
        return accounts.authenticate(bearerToken).map(Caller::new);
    }
}
