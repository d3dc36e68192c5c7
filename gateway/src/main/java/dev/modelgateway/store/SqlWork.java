package dev.modelgateway.store;

import java.sql.Connection;
import java.sql.SQLException;

/** A unit of JDBC work on one borrowed connection. */
@FunctionalInterface
public interface SqlWork<T> {
    T apply(Connection connection) throws SQLException;
}
