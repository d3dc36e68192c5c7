package dev.modelgateway.server;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Accepts only the configured master key; used when no accounts store is configured. */
public final class MasterKeyAuthenticator implements Authenticator {
    private final byte[] masterKey;

    public MasterKeyAuthenticator(String masterKey) {
        this.masterKey = masterKey == null ? null : masterKey.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Future<Caller> authenticate(String bearerToken) {
        if (masterKey != null && MessageDigest.isEqual(masterKey, bearerToken.getBytes(StandardCharsets.UTF_8))) {
            return Future.succeededFuture(new Caller("master", true));
        }
        return Future.failedFuture(GatewayException.of(ErrorKind.AUTHENTICATION, "Invalid API key."));
    }
}
