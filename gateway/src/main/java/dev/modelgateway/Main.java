package dev.modelgateway;

import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.cli.BackupCommand;
import dev.modelgateway.cli.JournalCommand;
import dev.modelgateway.cli.KeysCommand;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.console.ConsoleTimings;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Settings;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.RoutePrices;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.server.StartupFailure;
import dev.modelgateway.server.Version;
import dev.modelgateway.time.Ticker;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import sun.misc.Signal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Command line: {@code serve [--config FILE]}, {@code demo}, {@code keys}, {@code backup}, {@code journal},
 * {@code --version}. The {@code ./gw} launcher
 * and the release archive's {@code bin/model-gateway} call this.
 */
public final class Main {
    static {
        // Netty 4.2 reports its buffer allocations as JFR events when the JVM has JFR; the first check whether
        // they are enabled loads JFR's metadata: ~0.1 s on the event loop, inside the first request. The gateway
        // does not record them (docs/performance.md, "Start-up"); -Dio.netty.jfr.enabled=true brings them back.
        if (System.getProperty("io.netty.jfr.enabled") == null) System.setProperty("io.netty.jfr.enabled", "false");
    }

    static final long VERTX_CLOSE_SECONDS = 5;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "serve" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (command) {
            case "serve" -> serve(rest);
            case "demo" -> Demo.run(rest);
            case "keys" -> keys(args);
            case "backup" -> {
                Options o = options(rest);
                System.exit(BackupCommand.run(o.args(), o.accounts(), System.out, System.err));
            }
            case "journal" -> {
                Options o = options(rest);
                System.exit(JournalCommand.run(o.args(), o.accounts(), System.out, System.err));
            }
            // hidden: ./gw runs it to build the start-up cache (Training)
            case "train" -> System.exit(Training.run(rest, System.out));
            // hidden: ./gw console-seed seeds a ledger and times the console's screens (docs/console.md)
            case "console-seed" -> ConsoleTimings.main(rest);
            case "version", "--version", "-V" -> System.out.println("model-gateway " + Version.current());
            case "help", "--help", "-h" -> usage(0);
            default -> {
                System.err.println("unknown command '" + command + "'");
                usage(2);
            }
        }
    }

    private static void serve(String[] args) throws Exception {
        Path configFile = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) configFile = Path.of(args[++i]);
            else {
                System.err.println("unknown option '" + args[i] + "'");
                usage(2);
            }
        }
        GatewayConfig config = ConfigLoader.fromSystemEnv().load(configFile);
        if (config.masterKey() == null) {
            System.err.println("warning: " + Settings.SERVER_MASTER_KEY.name() + " is not set; no request can authenticate until keys"
                    + " exist.");
        }
        Vertx vertx = Vertx.vertx(vertxOptions());
        Gateway gateway;
        try {
            gateway = Gateway.start(vertx, config, eventLoops()).await();
        } catch (Throwable e) {
            // Vert.x's threads would keep the JVM alive, serving nothing: exit so that a supervisor restarts us
            System.err.println("error: the gateway could not start: " + startupMessage(e));
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // exiting anyway
            }
            System.exit(1);
            return;
        }
        System.out.println("Model Gateway listening on " + config.scheme() + "://" + config.host() + ":" + gateway.port() + "/api/v1");
        stopOnShutdown(vertx, gateway);
    }

    static String startupMessage(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof StartupFailure) return c.getMessage();
        }
        return e.toString();
    }

    /**
     * SIGTERM (a supervisor's stop) and Ctrl+C: {@link Gateway#stop()} (the drain, the ledger, Redis, the database),
     * then Vert.x, each bounded, so that the JVM exits within {@link Gateway#stopSeconds()} ({@code server.drain_seconds}
     * + {@value Gateway#AFTER_DRAIN_SECONDS}) + {@value #VERTX_CLOSE_SECONDS} s: inside a supervisor's grace period
     * (docs/operations/shutdown-and-rollouts.md), whose SIGKILL would cut the streams still running without their
     * error event. After SIGTERM the exit status is 0 when the stop was clean (the JVM's own handler exits 143
     * whatever happened), else 1.
     */
    static void stopOnShutdown(Vertx vertx, Gateway gateway) {
        Stop stop = new Stop(vertx, gateway);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::run, "gateway-shutdown"));
        try {
            Signal.handle(new Signal("TERM"), signal -> Thread.ofPlatform().name("gateway-sigterm")
                    .start(() -> System.exit(stop.run() ? 0 : 1)));
        } catch (IllegalArgumentException e) {
            // a JVM that reserves the signal refuses the handler: the shutdown hook still stops, with the JVM's status
            System.err.println("warning: SIGTERM is left to the JVM (" + e.getMessage() + "): a clean stop exits 143, not 0");
        }
    }

    /** The one stop, whichever of SIGTERM and the shutdown hook asks first; the other waits for its outcome. */
    private static final class Stop {
        private final Vertx vertx;
        private final Gateway gateway;
        private Boolean clean;

        Stop(Vertx vertx, Gateway gateway) {
            this.vertx = vertx;
            this.gateway = gateway;
        }

        synchronized boolean run() {
            if (clean != null) return clean;
            System.out.println("Model Gateway stopping: draining calls in flight (up to " + gateway.stopSeconds()
                    + " s), then writing the usage ledger");
            try {
                gateway.stop().toCompletionStage().toCompletableFuture().get(gateway.stopSeconds(), TimeUnit.SECONDS);
                vertx.close().toCompletionStage().toCompletableFuture().get(VERTX_CLOSE_SECONDS, TimeUnit.SECONDS);
                System.out.println("Model Gateway stopped");
                clean = true;
            } catch (Exception e) {
                System.err.println("shutdown did not complete cleanly: " + e);
                clean = false;
            }
            return clean;
        }
    }

    /** {@code keys create|list|disable|delete}: manages platform API keys in the configured store. */
    private static void keys(String[] args) throws Exception {
        Path configFile = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) configFile = Path.of(args[++i]);
            else rest.add(args[i]);
        }
        GatewayConfig config = ConfigLoader.fromSystemEnv().load(configFile);
        int status = KeysCommand.run(rest.toArray(String[]::new),
                new AccountsConfig(config.databaseUrl(), config.redisUrl(), config.masterKey(), null, config.defaultMaxConcurrent(),
                        config.ledgerJournalDir()),
                cliPrices(config), System.out);
        System.exit(status);
    }

    /** A command's own arguments, and the accounts' settings of the configuration its {@code --config} names. */
    private record Options(List<String> args, AccountsConfig accounts) {
    }

    private static Options options(String[] args) throws Exception {
        Path configFile = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) configFile = Path.of(args[++i]);
            else rest.add(args[i]);
        }
        GatewayConfig config = ConfigLoader.fromSystemEnv().load(configFile);
        return new Options(rest, new AccountsConfig(config.databaseUrl(), null, null, null, config.defaultMaxConcurrent(),
                config.ledgerJournalDir()));
    }

    /**
     * The prices the configuration gives, as a gateway running it prices with them: the catalogue's and the
     * deployments' own (docs/accounts.md, "Re-pricing"), so that {@code keys reprice} matches the gateway's table.
     */
    private static PriceBook cliPrices(GatewayConfig config) {
        return RoutePrices.of(Routes.build(config, Catalogue.load(config), new CircuitBreakers(Ticker.SYSTEM)));
    }

    static VertxOptions vertxOptions() {
        return new VertxOptions().setPreferNativeTransport(true);
    }

    static int eventLoops() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    private static void usage(int status) {
        System.out.println("""
                usage: model-gateway <command>   (./gw <command> in a source checkout)
                  serve [--config FILE]   run the gateway (configuration: docs/configuration.md)
                  demo                    run the gateway on the built-in vendor simulator with a demo key
                  keys create|list|disable|delete   manage platform API keys (docs/accounts.md)
                  backup --to FILE        copy the SQLite database while the gateway serves
                  journal replay          write the ledger journal's rows the database lacks, after a restore
                                          (both: docs/operations/backup-and-restore.md)
                  --version               print the version
                """);
        System.exit(status);
    }
}
