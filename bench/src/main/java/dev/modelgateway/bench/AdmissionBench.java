package dev.modelgateway.bench;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.accounts.Admission;
import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.cli.KeysCommand;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a key's limits add to one request on the request path, as the call runner calls them: authenticate the
 * bearer key, admit (allow-list, budget, rate limits), settle the tokens. The master key skips the limiter; a
 * stored key with generous limits (as in accounts-overhead.sh) runs all of it, with counters in this process
 * ({@code memory}) or shared through Redis on 127.0.0.1:6379 ({@code redis}). The ledger record is left out:
 * the same for every key, and at this loop's rate it would only measure the ledger thread's backlog
 * (accounts-overhead.sh measures it end to end).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AdmissionBench {
    private static final String MASTER = "pk-bench-master";
    private static final String MODEL = "platform/vendorB-5.5";
    private static final PriceBook PRICES = model -> new ModelPrice(new BigDecimal("1.25"), new BigDecimal("10"),
            new BigDecimal("0.125"), new BigDecimal("1.25"), new BigDecimal("2.5"));

    @Param({"memory", "redis"})
    public String counters;

    @Param({"master", "stored"})
    public String key;

    private Vertx vertx;
    private Path dir;
    private Accounts accounts;
    private String secret;

    @Setup(Level.Trial)
    public void open() throws Exception {
        vertx = Vertx.vertx();
        dir = Files.createTempDirectory("admission-bench");
        AccountsConfig config = new AccountsConfig("jdbc:sqlite:" + dir.resolve("bench.db"),
                counters.equals("redis") ? "redis://127.0.0.1:6379" : null, MASTER, "admission-bench-" + ProcessHandle.current().pid() + ":");
        secret = key.equals("master") ? MASTER : createKey(config);
        accounts = await(Accounts.open(vertx, config, PRICES));
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        await(accounts.close());
        await(vertx.close());
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public Admission admitAndSettle() {
        ApiKey k = await(accounts.authenticate(secret));
        Admission admission = await(accounts.admit(k, MODEL, 120));
        admission.settle(70);
        return admission;
    }

    private static String createKey(AccountsConfig config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = KeysCommand.run(new String[] {"keys", "create", "--name", "bench", "--rpm", "100000000", "--tpm",
                "100000000000"}, config, PRICES, new PrintStream(out, true, StandardCharsets.UTF_8));
        Matcher m = Pattern.compile("key: +(pk-\\S+)").matcher(out.toString(StandardCharsets.UTF_8));
        if (code != 0 || !m.find()) throw new IllegalStateException("keys create failed: " + out);
        return m.group(1);
    }

    /** On the fast paths the futures are already complete; only a call to Redis (or the database) waits. */
    private static <T> T await(Future<T> f) {
        if (f.succeeded()) return f.result();
        return f.toCompletionStage().toCompletableFuture().join();
    }
}
