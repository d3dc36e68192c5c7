package dev.modelgateway.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where a store (the accounts' keys, teams and audit log) runs its SQL: on the pool, a connection per call, or on
 * one transaction's connection, so that a change and its audit entry commit together.
 */
public interface Sql {
    <T> T call(SqlWork<T> work) throws SQLException;

    static Sql pool(Database db) {
        return db::call;
    }

    /** Everything on {@code c}, inside the transaction it belongs to. */
    static Sql in(Connection c) {
        return new Sql() {
            @Override
            public <T> T call(SqlWork<T> work) throws SQLException {
                return work.apply(c);
            }
        };
    }
}
