package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.KeyToken;

import java.util.List;

/**
 * The master keys in force: {@code server.master_key} and, while a rotation runs, {@code server.previous_master_keys}
 * (docs/operations/key-rotation.md), swapped whole when a reload applies new ones.
 */
final class MasterKeys {
    private volatile List<String> keys;

    MasterKeys(String masterKey) {
        this.keys = masterKey == null ? List.of() : List.of(masterKey);
    }

    /** Whether {@code token} is one of them, compared with each in constant time so that timing leaks none of them. */
    boolean matches(String token) {
        boolean any = false;
        for (String key : keys) any |= KeyToken.sameSecret(token, key);
        return any;
    }

    boolean configured() {
        return !keys.isEmpty();
    }

    void replace(List<String> next) {
        keys = List.copyOf(next);
    }
}
