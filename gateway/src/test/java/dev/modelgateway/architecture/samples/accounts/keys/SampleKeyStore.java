package dev.modelgateway.architecture.samples.accounts.keys;

import dev.modelgateway.architecture.samples.accounts.limits.SampleLimit;

import java.sql.Connection;
import java.sql.SQLException;

/** A store of keys that reaches into the limits part, for {@code LayoutRulesFailTest}. */
public class SampleKeyStore {
    public int count(Connection c) throws SQLException {
        return c.getNetworkTimeout() + new SampleLimit().rpm();
    }
}
