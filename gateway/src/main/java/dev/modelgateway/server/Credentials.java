package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.keys.KeyToken;
import dev.modelgateway.config.IdentityConfig;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Caller;
import dev.modelgateway.identity.JwtShape;
import dev.modelgateway.identity.TokenCallers;
import io.vertx.core.Future;

import java.util.function.Supplier;

/**
 * Which kind of credential a bearer token is, and who checks it (docs/identity/README.md): a JWT only ever as an
 * identity provider's token (never looked up as a key: aisix PR #825 did, and so accepted a forged token that
 * happened to collide with nothing), checked by {@link TokenCallers} (docs/identity/caller-tokens.md); an admin key's
 * secret ({@code pka-}) by the admin keys; anything else by the accounts (the master keys, refused once
 * {@code identity.sign_in.disable_master_key} is set, then the stored keys).
 */
final class Credentials implements Authenticator {
    private final Accounts accounts;
    private final TokenCallers tokens;
    /** The {@code identity} section in force: a reload that disables the master key applies at the next request. */
    private final Supplier<IdentityConfig> identity;

    Credentials(Accounts accounts, TokenCallers tokens, Supplier<IdentityConfig> identity) {
        this.accounts = accounts;
        this.tokens = tokens;
        this.identity = identity;
    }

    @Override
    public Future<Caller> authenticate(String bearerToken) {
        if (JwtShape.looksLikeJwt(bearerToken)) {
            return tokens.authenticate(bearerToken).map(admitted -> new Caller(admitted.key(), admitted.principal()));
        }
        // an admin key's secret is looked up with the admin keys alone: it calls no model
        if (KeyToken.isAdminSecret(bearerToken)) return accounts.authenticateAdminKey(bearerToken).map(p -> new Caller(null, p));
        return accounts.authenticate(bearerToken).compose(key -> key.master() && identity.get().masterKeyDisabled()
                ? Future.failedFuture(GatewayException.of(ErrorKind.AUTHENTICATION, "The master key is disabled"
                        + " (identity.sign_in.disable_master_key): sign in through SSO or use an admin key.").withCode("master_key_disabled"))
                : Future.succeededFuture(new Caller(key)));
    }
}
