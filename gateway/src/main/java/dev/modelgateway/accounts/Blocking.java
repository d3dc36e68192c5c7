package dev.modelgateway.accounts;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.concurrent.Callable;

/** The accounts' database work, on a worker thread: a failing database is the caller's 503, logged once here. */
final class Blocking {
    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);

    private final Vertx vertx;

    Blocking(Vertx vertx) {
        this.vertx = vertx;
    }

    <T> Future<T> run(Callable<T> work) {
        return vertx.executeBlocking(() -> {
            try {
                return work.call();
            } catch (SQLException e) {
                LOG.error("accounts database failure", e);
                throw GatewayException.of(ErrorKind.UNAVAILABLE, "The accounts database is unavailable.");
            }
        }, false);
    }
}
