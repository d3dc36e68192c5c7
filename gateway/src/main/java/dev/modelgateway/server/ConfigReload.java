package dev.modelgateway.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.endpoint.admin.ConfigEndpoint.Applied;
import dev.modelgateway.observability.Redaction;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.routing.RoutesChange;
import dev.modelgateway.routing.RoutingTable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.file.FileProps;
import org.slf4j.Logger;
import dev.modelgateway.access.Actor;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Applies a changed configuration file without a restart (docs/configuration.md, "Hot reload"): the file is read,
 * checked and built into new routes on a worker thread, then swapped in whole; a file that fails any check is refused
 * with the message naming its line or field, and the routes in force stay. Calls in flight keep the deployment and
 * the connection they have, so no stream is cut. The file, and the secret files its {@code ${file:PATH}} references
 * read, are watched by polling their size and modification time, their symbolic links followed (robust on bind mounts
 * and on Kubernetes ConfigMap and Secret volumes, which swap a {@code ..data} link, where file events are unreliable).
 */
final class ConfigReload {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigReload.class);
    static final long WATCH_EVERY_MS = 1_000;

    private final Vertx vertx;
    private final ConfigLoader loader;
    private final RoutingTable table;
    private final CircuitBreakers breakers;
    private final Path file;
    /** The accounts: each applied reload's audit entry, and the master keys it puts in force. */
    private volatile Administration accounts;
    private long watchTimer = -1;
    /** Each watched file's stamp at the last look. */
    private Map<Path, String> seen;
    /** The secret files the configuration last loaded read: watched with the file. */
    private volatile List<Path> secretFiles;

    ConfigReload(Vertx vertx, ConfigLoader loader, RoutingTable table, CircuitBreakers breakers) {
        this.vertx = vertx;
        this.loader = loader;
        this.table = table;
        this.breakers = breakers;
        this.file = table.current().config().routing().file();
        this.secretFiles = table.current().config().settings().substitutions().files();
    }

    /** Who reloads when the watched file changes: the audit entry's actor. */
    static final Actor FILE_ACTOR = Actor.system("config-file");

    /** An applied reload, and what it changed for its audit entry. */
    private record Done(Applied applied, ObjectNode change) {
    }

    /**
     * The accounts once they are open: each applied reload is an entry of their audit log and puts its master keys in
     * force there, starting with the running configuration's now.
     */
    void attach(Administration admin) {
        admin.useMasterKeys(table.current().config().masterKeys());
        this.accounts = admin;
    }

    /**
     * Reads the file again and applies it, or fails with the reason (the running configuration stays). Each applied
     * reload is an audit entry by {@code actor} (the principal the admin API authorized, or {@link #FILE_ACTOR}) with what changed.
     */
    synchronized Future<Applied> reload(Actor actor) {
        if (file == null) {
            return Future.failedFuture(new IllegalArgumentException("The gateway was started without a configuration file"
                    + " (--config): there is nothing to reload."));
        }
        return vertx.executeBlocking(() -> {
            GatewayConfig running = table.current().config();
            GatewayConfig loaded = loader.load(file);
            secretFiles = loaded.settings().substitutions().files();
            List<String> restartNeeded = running.settings().restartNeeded(loaded.settings());
            if (!restartNeeded.isEmpty()) {
                LOG.warn("configuration file {} changes {}: a reload does not apply them, a restart does", file, restartNeeded);
            }
            GatewayConfig next = running.withReloadable(loaded);
            Catalogue catalogue;
            try {
                catalogue = Catalogue.load(next);
            } catch (IllegalArgumentException e) {
                throw loaded.settings().substitutions().hide(e);
            }
            Routes routes = Routes.build(next, catalogue, breakers);
            Routes before = table.current();
            refuseUnserved(before, routes, loaded.settings().substitutions().unset());
            // the new secrets are redacted before anything can log them; the previous ones stay redacted
            next.secrets().forEach(Redaction::register);
            table.replace(routes);
            Administration admin = accounts;
            if (admin != null) admin.useMasterKeys(next.masterKeys());
            int deployments = routes.all().values().stream().mapToInt(List::size).sum();
            LOG.info("configuration reloaded from {}: {} models, {} deployments", file, catalogue.models().size(), deployments);
            ObjectNode change = RoutesChange.between(before, routes).put("file", file.toString());
            if (!running.masterKeys().equals(next.masterKeys())) change.put("master_keys_changed", true);
            restartNeeded.forEach(change.putArray("restart_needed")::add);
            return new Done(new Applied(catalogue.models().size(), deployments, restartNeeded),
                    loaded.settings().substitutions().hideIn(change));
        }, false).recover(e -> {
            String why = e instanceof IllegalArgumentException || e instanceof IOException ? e.getMessage() : e.toString();
            LOG.warn("configuration file {} refused, the running configuration stays: {}", file, why);
            return Future.failedFuture(new IllegalArgumentException(why, e));
        }).compose(done -> audited(actor, done.change()).map(done.applied()));
    }

    /** The audit entry of an applied reload; one that cannot be written is logged, the reload stays applied. */
    private Future<Void> audited(Actor actor, ObjectNode change) {
        Administration admin = accounts;
        if (admin == null) return Future.succeededFuture();
        return admin.recordConfigReload(actor, change).recover(e -> {
            LOG.warn("configuration reload by {} applied but not written to the audit log: {}", actor.id(), e.toString());
            return Future.succeededFuture();
        });
    }

    /**
     * Refuses routes that take the last usable deployment (one with a key where its provider needs one) from a model that
     * had one: a mistyped key variable must not take a vendor down. A provider switched off on purpose
     * ({@code enabled: false}) has no deployments, so its models pass.
     *
     * @param unset the file's {@code ${VAR}} references the environment does not set: the likely cause, named
     */
    static void refuseUnserved(Routes running, Routes next, List<String> unset) {
        Set<String> models = new TreeSet<>();
        Set<String> providers = new TreeSet<>();
        next.all().forEach((model, deployments) -> {
            if (deployments.isEmpty() || deployments.stream().anyMatch(d -> d.endpoint().configured())) return;
            if (running.all().getOrDefault(model, List.of()).stream().noneMatch(d -> d.endpoint().configured())) return;
            models.add(model);
            deployments.forEach(d -> providers.add(d.endpoint().provider()));
        });
        if (models.isEmpty()) return;
        List<String> shown = models.stream().limit(5).toList();
        throw new IllegalArgumentException("no usable deployment would be left for " + String.join(", ", shown)
                + (models.size() > shown.size() ? " and " + (models.size() - shown.size()) + " more models" : "")
                + ": provider " + providers.stream().map(p -> "'" + p + "'").collect(Collectors.joining(", ")) + " would have no key"
                + (unset.isEmpty() ? "" : " (the file references " + String.join(", ", unset) + ", which "
                        + (unset.size() == 1 ? "is" : "are") + " not set)")
                + ". Set the key, or switch the provider off on purpose with providers.<name>.enabled: false.");
    }

    /** Starts watching the file and its secret files; a change is applied once it stops changing between two looks. */
    void watch() {
        if (file == null) return;
        stamps().onSuccess(s -> seen = s);
        watchTimer = vertx.setPeriodic(WATCH_EVERY_MS, id -> stamps().onSuccess(now -> {
            // a reload that changed which secret files are read has applied them: a new list is no change to apply
            boolean changed = seen != null && seen.keySet().equals(now.keySet()) && !now.equals(seen);
            seen = now;
            if (changed) reload(FILE_ACTOR);
        }));
    }

    /**
     * The modification time and size of the file and of each secret file, read through their links; fails (the look is
     * skipped) while one cannot be read, e.g. a file being replaced.
     */
    private Future<Map<Path, String>> stamps() {
        List<Path> watched = new ArrayList<>();
        watched.add(file);
        watched.addAll(secretFiles);
        List<Future<FileProps>> props = watched.stream().map(f -> vertx.fileSystem().props(f.toString())).toList();
        return Future.all(props).map(all -> {
            Map<Path, String> stamps = new LinkedHashMap<>();
            for (int i = 0; i < watched.size(); i++) stamps.put(watched.get(i), stamp(props.get(i).result()));
            return stamps;
        });
    }

    void stop() {
        if (watchTimer >= 0) vertx.cancelTimer(watchTimer);
    }

    private static String stamp(FileProps p) {
        return p.lastModifiedTime() + ":" + p.size();
    }
}
