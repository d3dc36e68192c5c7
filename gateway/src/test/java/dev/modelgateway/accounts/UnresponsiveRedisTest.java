package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.limits.EventLoopRedis;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.onLoop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that accepts connections and loads the script but never answers a rate-limit call (hung, or behind
 * a half-open socket): an admission waits at most {@link EventLoopRedis#TIMEOUT_MS}, then goes through
 * without limits, as when Redis is down; and closing the accounts does not wait on it.
 */
class UnresponsiveRedisTest {
    private static final String MODEL = "platform/vendorA-small";

    @TempDir
    Path dir;
    private Vertx vertx;
    private NetServer hung;
    private Accounts accounts;
    /** From now on a new connection's {@code CLIENT SETNAME} gets no answer: it never finishes opening. */
    private volatile boolean silentToNewConnections;
    private final AtomicInteger unanswered = new AtomicInteger();

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        hung = await(vertx.createNetServer().connectHandler(socket -> socket.handler(bytes -> {
            String command = bytes.toString().toUpperCase();
            // Enough of RESP for the client to connect and load the script; EVALSHA gets no answer.
            if (command.contains("HELLO")) socket.write("-ERR unknown command 'HELLO'\r\n");
            else if (command.contains("SCRIPT")) socket.write("$40\r\n" + "0".repeat(40) + "\r\n");
            else if (command.contains("SETNAME") && silentToNewConnections) unanswered.incrementAndGet();
            else if (command.contains("SETNAME") || command.contains("SELECT")) socket.write("+OK\r\n");
            else if (command.contains("PING")) socket.write("+PONG\r\n");
        })).listen(0, "127.0.0.1"));
        accounts = await(Accounts.open(vertx, new AccountsConfig("jdbc:sqlite:" + dir.resolve("gateway.db"),
                "redis://127.0.0.1:" + hung.actualPort(), "hung-master", "hung:"), Fixtures.PRICES));
    }

    @AfterEach
    void close() {
        if (accounts != null) await(accounts.close());
        await(hung.close());
        await(vertx.close());
    }

    @Test
    void anAdmissionWaitsAtMostTheTimeoutThenGoesThroughUnlimited() {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("limited", List.of(), 5L, null, null, null), false));
        ApiKey key = await(accounts.authenticate(created.secret()));

        for (Context where : new Context[] {vertx.getOrCreateContext(), null}) { // on an event loop, and off one
            long start = System.nanoTime();
            Admission admission = where == null ? await(accounts.admit(key, MODEL, 10)) : onLoop(where, () -> accounts.admit(key, MODEL, 10));
            long waitedMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(admission.headers()).as("admitted without limits").isEmpty();
            assertThat(waitedMs).isBetween(EventLoopRedis.TIMEOUT_MS - 50, EventLoopRedis.TIMEOUT_MS + 2000);
        }
    }

    @Test
    void closingDoesNotWaitForAConnectionRedisNeverLetsOpen() throws InterruptedException {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("closing", List.of(), 5L, null, null, null), false));
        ApiKey key = await(accounts.authenticate(created.secret()));
        silentToNewConnections = true;
        Context loop = vertx.getOrCreateContext();
        // the loop's connection stops answering and is dropped; the next admission asks for a new one, which never opens
        onLoop(loop, () -> accounts.admit(key, MODEL, 10));
        int before = unanswered.get();
        loop.runOnContext(v -> accounts.admit(key, MODEL, 10));
        Eventually.until("a connection being opened", Duration.ofSeconds(5), () -> unanswered.get() > before);

        long start = System.nanoTime();
        await(accounts.close());
        accounts = null;
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms to close")
                .isLessThan(EventLoopRedis.CLOSE_TIMEOUT_MS + 1000);
    }
}
