package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Caller;
import dev.modelgateway.identity.JwtShape;
import io.vertx.core.Future;

/**
 * Which kind of credential a bearer token is, and who checks it (docs/identity/README.md): a JWT only ever as an
 * identity provider's token (never looked up as a key: aisix PR #825 did, and so accepted a forged token that
 * happened to collide with nothing), anything else by the accounts (the master keys, then the stored keys).
 */
final class Credentials implements Authenticator {
    private final Accounts accounts;

    Credentials(Accounts accounts) {
        this.accounts = accounts;
    }

    @Override
    public Future<Caller> authenticate(String bearerToken) {
        if (JwtShape.looksLikeJwt(bearerToken)) {
            return Future.failedFuture(GatewayException.of(ErrorKind.AUTHENTICATION,
                    "This token is a JWT, and no trusted issuer is configured to accept it.").withCode("invalid_token"));
        }
        return accounts.authenticate(bearerToken).map(Caller::new);
    }
}
