package dev.modelgateway.services;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** The task table's bounds: ended tasks expire, a key's unfinished tasks are counted, abandoned ones are found. */
class TranscriptionTaskStoreTest {
    private Database db;
    private TranscriptionTaskStore store;

    @BeforeEach
    void open() {
        db = Database.open(GatewayHarness.tempDatabaseUrl(), Accounts.SCHEMA);
        store = new TranscriptionTaskStore(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private void insert(String id, String keyId, long at) throws SQLException {
        store.insert(new TranscriptionTask(id, keyId, "platform/vendorB-transcribe", TranscriptionTask.QUEUED,
                Json.MAPPER.createObjectNode(), "a.wav", "audio/wav", new byte[8], null, null, 0, at, null, null));
    }

    @Test
    void anEndedTaskIsDeletedOnceExpiredAndAnUnfinishedOneNever() throws SQLException {
        insert("trtask_done", "key", 1_000);
        insert("trtask_failed", "key", 1_000);
        insert("trtask_waiting", "key", 1_000);
        store.claim("trtask_done", 2_000);
        store.succeed("trtask_done", Json.MAPPER.createObjectNode().put("body", "hi"), 3_000);
        store.claim("trtask_failed", 2_000);
        store.fail("trtask_failed", Json.MAPPER.createObjectNode().put("code", "x"), 5_000);

        assertThat(store.deleteFinished(3_000)).isZero();
        assertThat(store.deleteFinished(4_000)).isEqualTo(1);
        assertThat(store.find("trtask_done", false)).isEmpty();
        assertThat(store.find("trtask_failed", false)).isPresent();
        assertThat(store.deleteFinished(Long.MAX_VALUE)).isEqualTo(1);
        assertThat(store.find("trtask_waiting", false)).as("not ended: kept").isPresent();
    }

    @Test
    void unfinishedTasksAreCountedPerKey() throws SQLException {
        insert("trtask_1", "key", 1_000);
        insert("trtask_2", "key", 1_000);
        insert("trtask_3", "other", 1_000);
        store.claim("trtask_2", 2_000);
        assertThat(store.unfinished("key")).isEqualTo(2);
        store.succeed("trtask_2", Json.MAPPER.createObjectNode(), 3_000);
        assertThat(store.unfinished("key")).isEqualTo(1);
        assertThat(store.unfinished("other")).isEqualTo(1);
    }

    @Test
    void onlyTasksRunningSinceBeforeTheCutOffAreRequeued() throws SQLException {
        insert("trtask_old", "key", 1_000);
        insert("trtask_recent", "key", 1_000);
        store.claim("trtask_old", 2_000);
        store.claim("trtask_recent", 9_000);

        assertThat(store.requeueAbandoned(5_000, 10_000, 10_000)).as("queued before 10,000: none yet").isEmpty();
        assertThat(store.find("trtask_old", false).orElseThrow().state()).isEqualTo(TranscriptionTask.QUEUED);
        assertThat(store.find("trtask_recent", false).orElseThrow().state()).as("another process may be running it")
                .isEqualTo(TranscriptionTask.RUNNING);
        assertThat(store.requeueAbandoned(5_000, 10_001, 11_000)).containsExactly("trtask_old");
    }
}
