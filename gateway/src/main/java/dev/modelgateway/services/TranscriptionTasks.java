package dev.modelgateway.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.routing.RetryRule;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.store.Database;
import dev.modelgateway.upstream.Relay;
import dev.modelgateway.upstream.TransportFailures;
import dev.modelgateway.upstream.CloudAuth;
import dev.modelgateway.upstream.VendorClients;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.wire.openai.media.OpenAiTranscriptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * Runs transcription tasks: each accepted task is stored first (so it survives a restart), then claimed,
 * sent to a deployment of its model chosen by the routes in force (by weight, behind the deployment's circuit
 * breaker, like every call; the task keeps the public model id, so a resumed task is routed again), and finished
 * with its transcript or error. Tasks are in the accounts database, so on PostgreSQL every instance answers for
 * every task, and any instance claims the ones another left: a claim is one conditional update, so a task runs in
 * one place at a time. A task left running by a process that stopped is queued again and resumed: with the embedded
 * database at the next start (the process owns the file), on PostgreSQL once it has been running longer than a
 * vendor call may last ({@link #abandonedAfter}; another instance may still be running it until then), by the start
 * or the sweep every {@link #SWEEP_EVERY} of any instance. A task interrupted {@link #MAX_ATTEMPTS} times fails.
 * Bounded: a key has at most {@link #MAX_UNFINISHED_PER_KEY} tasks not ended (each holds its audio), and an ended
 * task is deleted {@link #EXPIRY} after it ended. JDBC runs on Vert.x worker threads, never on an event loop.
 */
public final class TranscriptionTasks {
    static final int MAX_ATTEMPTS = 3;
    static final Duration RETRY_DELAY = Duration.ofSeconds(2);
    /** Tasks not ended per key: each keeps its audio (up to the upload limit) until it ends. */
    public static final int MAX_UNFINISHED_PER_KEY = 16;
    /** An ended task's transcript or error stays readable this long. */
    public static final Duration EXPIRY = Duration.ofDays(7);
    static final Duration SWEEP_EVERY = Duration.ofMinutes(1);
    /** Past the deadline of its vendor call, this margin more, a running task's process has stopped. */
    private static final Duration ABANDON_MARGIN = Duration.ofMinutes(1);
    /** A task queued this long ago and not claimed was left by a process that stopped before claiming it. */
    static final Duration ORPHANED_AFTER = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(TranscriptionTasks.class);

    private final Vertx vertx;
    private final TranscriptionTaskStore store;
    private final VendorClients clients;
    private final Relay relay;
    private final RoutingTable table;
    private final Accounts accounts;
    private volatile boolean closed;
    private long sweepTimer = -1;

    private TranscriptionTasks(Vertx vertx, Database db, RoutingTable table, Accounts accounts, CircuitBreakers breakers,
                               CloudAuth cloudAuth) {
        this.vertx = vertx;
        this.store = new TranscriptionTaskStore(db);
        this.clients = new VendorClients(vertx, cloudAuth);
        this.relay = new Relay(clients, breakers, table.current().config().limits().vendorAnswers());
        this.table = table;
        this.accounts = accounts;
    }

    /**
     * Starts the runner and resumes the tasks a previous process did not finish.
     *
     * @param table the routes in force, read afresh for each task (a reload applies to the next)
     */
    public static Future<TranscriptionTasks> start(Vertx vertx, RoutingTable table, Accounts accounts, CircuitBreakers breakers,
                                                   CloudAuth cloudAuth) {
        TranscriptionTasks tasks = new TranscriptionTasks(vertx, accounts.database(), table, accounts, breakers, cloudAuth);
        long now = System.currentTimeMillis();
        // the embedded database is this process's alone: what it left running was interrupted
        long startedBefore = accounts.database().vendor() == Database.Vendor.SQLITE ? Long.MAX_VALUE : now - tasks.abandonedAfter().toMillis();
        return tasks.blocking(() -> tasks.store.requeueAbandoned(startedBefore, Long.MAX_VALUE, now)).map(ids -> {
            if (!ids.isEmpty()) LOG.info("resuming {} transcription task(s)", ids.size());
            ids.forEach(tasks::process);
            tasks.sweepTimer = vertx.setPeriodic(SWEEP_EVERY.toMillis(), t -> tasks.sweep(System.currentTimeMillis()));
            return tasks;
        });
    }

    /** Past its vendor call's deadline ({@code timeouts.transcriptions}) and a margin, a running task's process has stopped. */
    private Duration abandonedAfter() {
        return table.current().config().timeouts().transcriptions().plus(ABANDON_MARGIN);
    }

    /** Resumes the tasks other processes left, and deletes the expired ones. */
    Future<Void> sweep(long now) {
        if (closed) return Future.succeededFuture();
        return blocking(() -> {
            int expired = store.deleteFinished(now - EXPIRY.toMillis());
            if (expired > 0) LOG.debug("{} expired transcription task(s) deleted", expired);
            return store.requeueAbandoned(now - abandonedAfter().toMillis(), now - ORPHANED_AFTER.toMillis(), now);
        }).<Void>map(ids -> {
            if (!ids.isEmpty()) LOG.info("resuming {} transcription task(s) left by another process", ids.size());
            ids.forEach(this::process);
            return null;
        }).onFailure(e -> LOG.warn("transcription tasks not swept: {}", e.toString()));
    }

    /**
     * Stores a new queued task and starts it; completes once it is stored, or fails with a 429 when the key has
     * {@link #MAX_UNFINISHED_PER_KEY} tasks not ended.
     */
    public Future<TranscriptionTask> submit(String keyId, ModelEntry model, ObjectNode form, MultipartForm.Part file) {
        TranscriptionTask task = new TranscriptionTask("trtask_" + UUID.randomUUID().toString().replace("-", ""), keyId,
                model.id(), TranscriptionTask.QUEUED, form, file.filename() == null ? "audio" : file.filename(),
                file.contentType(), file.data(), null, null, 0, System.currentTimeMillis(), null, null);
        return blocking(() -> {
            if (store.unfinished(keyId) >= MAX_UNFINISHED_PER_KEY) throw tooMany();
            store.insert(task);
            return task;
        }).onSuccess(t -> process(t.id()));
    }

    private static GatewayException tooMany() {
        return GatewayException.of(ErrorKind.RATE_LIMIT, "This API key has " + MAX_UNFINISHED_PER_KEY + " transcription tasks "
                + "not finished yet, the most the gateway keeps per key; submit more once some have finished.")
                .withCode("too_many_tasks").withHeaders(Map.of("retry-after", "10"));
    }

    /** The task if it exists and belongs to the key. */
    public Future<Optional<TranscriptionTask>> find(String id, String keyId) {
        return blocking(() -> store.find(id, false).filter(t -> t.keyId().equals(keyId)));
    }

    private void process(String id) {
        if (closed) return;
        long now = System.currentTimeMillis();
        blocking(() -> store.claim(id, now) ? store.find(id, true) : Optional.<TranscriptionTask>empty())
                .onSuccess(claimed -> claimed.ifPresent(this::run))
                .onFailure(e -> LOG.error("transcription task " + id + " could not be claimed", e));
    }

    private void run(TranscriptionTask task) {
        if (task.attempts() > MAX_ATTEMPTS) {
            finishFailed(task, 500, "interrupted", "The task was interrupted " + MAX_ATTEMPTS + " times and was abandoned.");
            return;
        }
        Routes routes = table.current();
        ModelEntry model = routes.catalogue().find(task.model());
        if (model == null) {
            finishFailed(task, 400, "model_not_found", "Model '" + task.model() + "' is no longer in the catalogue.");
            return;
        }
        Deployment d = routes.choose(model, Set.of()).deployment();
        VendorRequest req = VendorRequest.of(d.endpoint(),
                OpenAiTranscriptions.task(task.form(), task.fileName(), task.fileType(), task.audio(), d.upstreamModel()),
                Deadline.ofMillis(routes.config().timeouts().transcriptions().toMillis()));
        relay.fetch(vertx, req).onComplete(ar -> {
            if (closed) return; // the next process resumes the task
            if (ar.succeeded()) {
                Relay.Answer a = ar.result();
                ObjectNode result = Json.MAPPER.createObjectNode()
                        .put("content_type", String.valueOf(a.headers().get("content-type")))
                        .put("body", a.body().toString());
                long done = System.currentTimeMillis();
                blocking(() -> {
                    store.succeed(task.id(), result, done);
                    return null;
                }).onSuccess(v -> record(task, model, d, OpenAiTranscriptions.usage(a.body()), 200));
            } else if (ar.cause() instanceof VendorError e && !RetryRule.retryableStatus(e.status())) {
                JsonNode vendorError = Json.parseOrNull(e.body().toString());
                String message = vendorError != null ? vendorError.at("/error/message").asText("") : "";
                finishFailed(task, e.status(), "upstream_error",
                        message.isEmpty() ? "The vendor refused the audio (HTTP " + e.status() + ")." : message);
            } else if (ar.cause() instanceof VendorError e) {
                retryLater(task, "vendor answered HTTP " + e.status());
            } else {
                // transport failures, timeouts and an open circuit breaker: the vendor may answer later
                retryLater(task, TransportFailures.classify(ar.cause(), model.vendor().id()).getMessage());
            }
        });
    }


    private void retryLater(TranscriptionTask task, String reason) {
        if (task.attempts() >= MAX_ATTEMPTS) {
            finishFailed(task, 502, "upstream_error", "The vendor failed " + MAX_ATTEMPTS + " times; last: " + reason);
            return;
        }
        blocking(() -> {
            store.requeue(task.id(), System.currentTimeMillis());
            return null;
        }).onSuccess(v -> vertx.setTimer(RETRY_DELAY.toMillis(), t -> process(task.id())));
    }

    private void finishFailed(TranscriptionTask task, int status, String code, String message) {
        ObjectNode error = Json.MAPPER.createObjectNode().put("message", message).put("code", code).put("status", status);
        long now = System.currentTimeMillis();
        blocking(() -> {
            store.fail(task.id(), error, now);
            return null;
        }).onSuccess(v -> {
            ModelEntry model = table.current().catalogue().find(task.model());
            if (model != null) record(task, model, null, Usage.ZERO, status);
        });
    }

    /** The task's row; billed at {@code served}'s own price when it has one (null: no deployment answered). */
    private void record(TranscriptionTask task, ModelEntry model, Deployment served, Usage usage, int status) {
        long latency = task.startedAtMs() == null ? 0 : System.currentTimeMillis() - task.startedAtMs();
        accounts.record(new UsageRecord(task.id(), task.keyId(), model.id(), model.id(), model.vendor().id(), usage,
                task.attempts(), status, latency, null, Instant.now(), null, served == null ? null : served.id()));
    }

    /** Stops starting work; tasks in flight stay running in the database and are resumed by the next start. */
    public Future<Void> close() {
        closed = true;
        if (sweepTimer >= 0) vertx.cancelTimer(sweepTimer);
        return clients.close();
    }

    private <T> Future<T> blocking(Callable<T> work) {
        return vertx.executeBlocking(work, false);
    }
}
