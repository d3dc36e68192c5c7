package dev.modelgateway.accounts;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Caller;
import dev.modelgateway.http.ErrorShape;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.server.GatewayRouter;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Real stores for the tests: a SQLite file, a fresh PostgreSQL schema, a Redis key namespace. */
public final class Fixtures {
    public static final String PG_BASE = "jdbc:postgresql://127.0.0.1:5432/gateway_test?user=gateway_test&password=gateway_test";
    public static final String REDIS_URL = "redis://127.0.0.1:6379";

    /** $3 / $15 per million in/out; cache reads at 10% of input, writes at 1.25x and 2x. */
    public static final ModelPrice LARGE = new ModelPrice(new BigDecimal("3"), new BigDecimal("15"), new BigDecimal("0.30"),
            new BigDecimal("3.75"), new BigDecimal("6"));
    public static final ModelPrice SMALL = new ModelPrice(new BigDecimal("0.25"), new BigDecimal("1.25"),
            new BigDecimal("0.025"), new BigDecimal("0.3125"), new BigDecimal("0.5"));
    public static final PriceBook PRICES = model -> switch (model) {
        case "platform/vendorA-large" -> LARGE;
        case "platform/vendorA-small" -> SMALL;
        case "platform/vendorA-unpriced" -> null;
        case "platform/vendorA-unknown" -> ModelPrice.UNKNOWN;
        default -> ModelPrice.FREE;
    };

    private Fixtures() {}

    public static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code work} on {@code loop} (an event-loop context) and waits for its result. */
    public static <T> T onLoop(Context loop, Supplier<Future<T>> work) {
        Promise<T> done = Promise.promise();
        loop.runOnContext(v -> work.get().onComplete(done));
        return await(done.future());
    }

    public static Throwable failure(Future<?> future) {
        try {
            future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        throw new AssertionError("expected a failure, got success");
    }

    public static String random(String prefix) {
        return prefix + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    public static UsageRecord usage(String keyId, String model, Usage usage, int status, Instant at) {
        return new UsageRecord(random("trace-"), keyId, model, status < 400 ? model : null, "vendorA", usage, 1, status,
                120, status < 400 ? 40L : null, at);
    }

    /** A PostgreSQL schema of its own, dropped on close. */
    record PgSchema(String name, String url) implements AutoCloseable {
        static PgSchema create() throws SQLException {
            String name = random("acc_");
            exec("CREATE SCHEMA " + name);
            return new PgSchema(name, PG_BASE + "&currentSchema=" + name);
        }

        @Override
        public void close() throws SQLException {
            exec("DROP SCHEMA " + name + " CASCADE");
        }

        private static void exec(String sql) throws SQLException {
            try (Connection c = DriverManager.getConnection(PG_BASE); Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
    }

    public static void deleteRedisKeys(Vertx vertx, String prefix) {
        Redis redis = Redis.createClient(vertx, REDIS_URL);
        try {
            Response keys = await(redis.send(Request.cmd(Command.KEYS).arg(prefix + "*")));
            for (Response k : keys) await(redis.send(Request.cmd(Command.DEL).arg(k.toString())));
        } finally {
            await(redis.close());
        }
    }

    /**
     * A real HTTP server on an ephemeral port with the gateway's accounts routes, behind a stand-in for its edge:
     * the error shape, the bearer authentication and a read body.
     */
    record Server(int port, HttpServer server) {
        static Server start(Vertx vertx, Accounts accounts) {
            Router router = Router.router(vertx);
            router.route().handler(ctx -> {
                Exchange.begin(ctx, ErrorShape.ADMIN);
                ctx.next();
            });
            router.route().handler(ctx -> authenticate(ctx, accounts));
            router.route().handler(BodyHandler.create(false));
            GatewayRouter.accountsApi(router, accounts.admin());
            router.route().failureHandler(ctx -> Exchange.fail(ctx, ctx.failure() instanceof GatewayException e ? e
                    : GatewayException.of(ErrorKind.INTERNAL, String.valueOf(ctx.failure()))));
            var server = await(vertx.createHttpServer().requestHandler(router).listen(0));
            return new Server(server.actualPort(), server);
        }

        Reply call(String method, String path, String bearer, JsonObject body) {
            var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body.encode()));
            if (bearer != null) request.header("Authorization", "Bearer " + bearer);
            if (body != null) request.header("Content-Type", "application/json");
            try (HttpClient client = HttpClient.newHttpClient()) {
                HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                return new Reply(r.statusCode(), r.body().isEmpty() ? new JsonObject() : new JsonObject(r.body()), r.headers());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        Reply get(String path, String bearer) {
            return call("GET", path, bearer, null);
        }

        private static void authenticate(RoutingContext ctx, Accounts accounts) {
            String auth = ctx.request().getHeader("authorization");
            String token = auth == null || !auth.startsWith("Bearer ") ? null : auth.substring(7);
            ctx.request().pause();
            accounts.authenticate(token).onComplete(ar -> {
                if (ar.failed()) {
                    Exchange.fail(ctx, (GatewayException) ar.cause());
                    return;
                }
                Exchange.of(ctx).caller(new Caller(ar.result()));
                ctx.next();
                ctx.request().resume();
            });
        }
    }

    record Reply(int status, JsonObject json, HttpHeaders headers) {
        JsonObject error() {
            return json.getJsonObject("error");
        }

        Map<String, String> firstHeaders() {
            return headers.map().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                    e -> e.getValue().getFirst()));
        }
    }
}
