package dev.modelgateway.e2e.identity;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.identity.JwksCache;
import dev.modelgateway.identity.VerifiedTokens;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Callers with an identity provider's token instead of a platform key (docs/identity/caller-tokens.md): an OIDC
 * provider's access tokens and a Kubernetes projected service-account token, from two issuers on loopback, through the
 * official SDKs (the token where the key goes); limited and billed per user by the caller mappings; every refusal a
 * 401 in the caller's protocol shape; a key rotation at the provider picked up without a restart; and a JWT never
 * looked up as a key.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CallerTokensContract {
    static final String CHAT_MODEL = "platform/vendorB-5.5";
    static final String MESSAGES_MODEL = "platform/vendorA-sonnet-4.5";

    Vertx vertx;
    VendorSimulator sim;
    TokenIssuers idp;
    TestClock clock;
    Path file;
    GatewayHarness h;
    String researchTeam;
    SharedStores shared;
    /** A JWT that is also an accepted master key: it must be refused as a token, never tried as a key. */
    String jwtShapedMasterKey;

    @BeforeAll
    void start() throws Exception {
        shared = stores();
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        idp = new TokenIssuers();
        clock = new TestClock(Instant.now());
        jwtShapedMasterKey = idp.signCorp(idp.access("mallory", clock.instant()).issuer("http://127.0.0.1:1/evil"));
        file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                server:
                  master_key: %s
                  previous_master_keys: [%s]
                identity:
                  trusted_issuers:
                    corp:
                      issuer: %s
                      audiences: [model-gateway]
                      required_scopes: [llm.call]
                      leeway_seconds: 0
                    k8s:
                      issuer: %s
                      audiences: [model-gateway]
                      jwks_uri: %s/openid/v1/jwks
                      bound_claims:
                        kubernetes.io.namespace: ml
                  caller_mappings:
                    - {issuer: corp, claim: groups, equals: limited, rpm: 1}
                    - {issuer: corp, claim: groups, equals: engineers, team: research, tpm: 100000}
                    - {issuer: corp, claim: groups, equals: ghosts, team: no-such-team}
                    - {issuer: corp, claim: groups, equals: frugal, budget_usd: "0.000001", budget_period: day}
                    - {issuer: k8s, claim: kubernetes.io.serviceaccount.name, equals: trainer, models: ["platform/vendorB-*"]}
                """.formatted(GatewayHarness.KEY, jwtShapedMasterKey, idp.corp(), idp.k8s(), idp.k8s()));
        h = (shared == null ? GatewayHarness.builder() : shared.gateway()).simulator(sim).configFile(file).accountsClock(clock).start();
        HttpResponse<String> team = h.send("POST", "/api/v1/admin/teams", "{\"name\":\"research\"}", "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(team.statusCode()).as(team.body()).isEqualTo(201);
        researchTeam = Json.parseOrNull(team.body()).path("id").asText();
    }

    /** Where the accounts are kept: null (as here) for a temporary SQLite file and in-process counters. */
    SharedStores stores() throws Exception {
        return null;
    }

    @AfterAll
    void stop() throws Exception {
        if (h != null) h.close();
        if (shared != null) shared.close();
        idp.close();
        sim.close().await();
        vertx.close().await();
        Files.deleteIfExists(file);
    }

    String alice(String... groups) {
        return idp.signCorp(idp.access("alice", clock.instant(), groups.length == 0 ? new String[]{"engineers"} : groups));
    }

    HttpResponse<String> chat(String token) {
        return h.post("/api/v1/chat/completions", "{\"model\":\"" + CHAT_MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "authorization", "Bearer " + token);
    }

    HttpResponse<String> messages(String token) {
        return h.post("/api/v1/messages", "{\"model\":\"" + MESSAGES_MODEL + "\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "authorization", "Bearer " + token);
    }

    JsonNode admin(String path) {
        HttpResponse<String> r = h.send("GET", path, null, "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body());
    }

    /** The ledger's rows of a column's value: user_id, team_id and key_id of each. */
    List<Map<String, String>> ledgerRows(String column, String value) throws Exception {
        try (Connection c = DriverManager.getConnection(h.databaseUrl);
             PreparedStatement ps = c.prepareStatement("SELECT user_id, team_id, key_id FROM usage_ledger WHERE " + column + " = ?")) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                List<Map<String, String>> rows = new ArrayList<>();
                while (rs.next()) {
                    Map<String, String> row = new LinkedHashMap<>();
                    row.put("user_id", rs.getString(1));
                    row.put("team_id", rs.getString(2));
                    row.put("key_id", rs.getString(3));
                    rows.add(row);
                }
                return rows;
            }
        }
    }

    String userId(String userName) throws Exception {
        try (Connection c = DriverManager.getConnection(h.databaseUrl);
             PreparedStatement ps = c.prepareStatement("SELECT id FROM users WHERE user_name = ?")) {
            ps.setString(1, userName);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Test
    void anOidcAccessTokenCallsChatAndMessagesThroughTheOfficialSdksBilledToItsUser() throws Exception {
        String token = alice();
        OpenAIClient openai = h.openai(token);
        ChatCompletion c = openai.chat().completions().create(ChatCompletionCreateParams.builder().model(CHAT_MODEL)
                .addUserMessage("Hello gateway").build());
        assertThat(c.choices().get(0).message().content()).hasValue("Hello from vendorB-5.5. You said: Hello gateway");

        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> s = openai.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model("platform/vendorB-5.4").addUserMessage("Hello gateway")
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.chatCompletion().choices().get(0).message().content()).hasValue("Hello from vendorB-5.4. You said: Hello gateway");

        AnthropicClient anthropic = h.anthropic(token);
        Message m = anthropic.messages().create(MessageCreateParams.builder().model(MESSAGES_MODEL).maxTokens(64)
                .addUserMessage("Hello gateway").build());
        assertThat(m.content()).last().satisfies(b -> assertThat(b.text().orElseThrow().text())
                .isEqualTo("Hello from vendorA-sonnet-4.5. You said: Hello gateway"));

        String alice = userId("corp:alice");
        assertThat(alice).as("provisioned just in time, named <issuer id>:<sub>").startsWith("usr_");
        h.awaitLedgerWritten();
        List<Map<String, String>> rows = ledgerRows("user_id", alice);
        assertThat(rows).hasSizeGreaterThanOrEqualTo(3).allSatisfy(r -> {
            assertThat(r.get("key_id")).as("the user's id as a key id: 32 characters, as the column holds")
                    .isEqualTo(alice.substring("usr_".length())).hasSize(32);
            assertThat(r.get("team_id")).as("the mapping's team").isEqualTo(researchTeam);
        });

        // the caller's own usage, with its token
        HttpResponse<String> own = h.send("GET", "/api/v1/usage", null, "authorization", "Bearer " + alice());
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(own.body()).at("/total/requests").asLong()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aKubernetesProjectedServiceAccountTokenIsAdmittedWithinItsMappingsAllowList() throws Exception {
        String token = idp.signK8s(idp.serviceAccount("ml", "trainer", clock.instant()));
        ChatCompletion c = h.openai(token).chat().completions().create(ChatCompletionCreateParams.builder().model(CHAT_MODEL)
                .addUserMessage("Hello gateway").build());
        assertThat(c.choices()).hasSize(1);
        String trainer = userId("k8s:system:serviceaccount:ml:trainer");
        assertThat(trainer).isNotNull();
        h.awaitLedgerWritten();
        assertThat(ledgerRows("key_id", trainer.substring("usr_".length()))).isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("user_id")).isEqualTo(trainer));

        // the mapping allows vendor B's models only
        HttpResponse<String> outside = messages(token);
        assertThat(outside.statusCode()).as(outside.body()).isEqualTo(403);
        assertThat(Json.parseOrNull(outside.body()).at("/error/type").asText()).isEqualTo("permission_error");

        // another service account of the namespace: valid, but no mapping admits it, and no user is made
        HttpResponse<String> unmapped = chat(idp.signK8s(idp.serviceAccount("ml", "notebook", clock.instant())));
        assertThat(unmapped.statusCode()).as(unmapped.body()).isEqualTo(403);
        assertThat(Json.parseOrNull(unmapped.body()).at("/error/code").asText()).isEqualTo("token_not_mapped");
        assertThat(userId("k8s:system:serviceaccount:ml:notebook")).isNull();
    }

    @Test
    void aPerUserRateLimitRefusesThatUsersSecondCallButNotAnotherUsers() throws Exception {
        String bob = idp.signCorp(idp.access("bob", clock.instant(), "limited"));
        String carol = idp.signCorp(idp.access("carol", clock.instant(), "limited"));
        assertThat(chat(bob).statusCode()).isEqualTo(200);
        HttpResponse<String> second = chat(bob);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(429);
        assertThat(Json.parseOrNull(second.body()).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(chat(carol).statusCode()).as("carol has a bucket of her own").isEqualTo(200);

        // the caller's own limits: its mapping's, by its user's id
        HttpResponse<String> limits = h.send("GET", "/api/v1/limits", null, "authorization", "Bearer " + bob);
        assertThat(limits.statusCode()).as(limits.body()).isEqualTo(200);
        JsonNode key = Json.parseOrNull(limits.body()).path("key");
        assertThat("usr_" + key.path("key_id").asText()).isEqualTo(userId("corp:bob"));
        assertThat(key.path("name").asText()).isEqualTo("corp:bob");
        assertThat(key.path("rpm").asLong()).isEqualTo(1);
        assertThat(key.at("/requests/remaining").asLong()).isZero();
    }

    @Test
    void usageIsReportedPerUser() throws Exception {
        String dave = idp.signCorp(idp.access("dave", clock.instant(), "engineers"));
        String erin = idp.signCorp(idp.access("erin", clock.instant(), "engineers"));
        assertThat(chat(dave).statusCode()).isEqualTo(200);
        assertThat(chat(dave).statusCode()).isEqualTo(200);
        assertThat(chat(erin).statusCode()).isEqualTo(200);
        h.awaitLedgerWritten();
        String daveId = userId("corp:dave");
        String erinId = userId("corp:erin");

        JsonNode report = admin("/api/v1/admin/usage?group_by=user");
        assertThat(report.path("group_by").toString()).isEqualTo("[\"user_id\"]");
        Map<String, JsonNode> byUser = new LinkedHashMap<>();
        report.path("data").forEach(row -> byUser.put(row.path("user_id").asText(), row));
        assertThat(byUser.get(daveId).path("requests").asLong()).isEqualTo(2);
        assertThat(byUser.get(erinId).path("requests").asLong()).isEqualTo(1);
        assertThat(byUser.get(daveId).path("total_tokens").asLong()).isPositive();
        assertThat(byUser.get(daveId).path("cost_usd").asText()).isNotEqualTo("0");

        JsonNode onlyErin = admin("/api/v1/admin/usage?user_id=" + erinId + "&group_by=user,model");
        assertThat(onlyErin.path("data")).hasSize(1);
        assertThat(onlyErin.at("/data/0/user_id").asText()).isEqualTo(erinId);
        assertThat(onlyErin.at("/total/requests").asLong()).isEqualTo(1);

        HttpResponse<String> bad = h.send("GET", "/api/v1/admin/usage?group_by=person", null, "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("user");
    }

    @Test
    void aPlatformKeyOwnedByAUserIsBilledToItsOwner() throws Exception {
        HttpResponse<String> made = h.send("POST", "/api/v1/admin/keys", "{\"name\":\"ivy-laptop\"}", "authorization",
                "Bearer " + GatewayHarness.KEY);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        JsonNode key = Json.parseOrNull(made.body());
        // a member's own key (api_keys.owner_user_id, V19): set here as the console's key screens will
        try (Connection c = DriverManager.getConnection(h.databaseUrl);
             PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET owner_user_id = 'usr_ivy' WHERE id = ?")) {
            ps.setString(1, key.path("id").asText());
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        assertThat(chat(key.path("key").asText()).statusCode()).isEqualTo(200);
        h.awaitLedgerWritten();
        assertThat(ledgerRows("key_id", key.path("id").asText())).singleElement().satisfies(r -> assertThat(r.get("user_id")).isEqualTo("usr_ivy"));
        assertThat(admin("/api/v1/admin/usage?user_id=usr_ivy").at("/total/requests").asLong()).isEqualTo(1);
    }

    @Test
    void everyBadTokenIsA401InTheCallersProtocolShapeQuotingNoToken() throws Exception {
        Instant now = clock.instant();
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("token_expired", idp.signCorp(idp.access("alice", now.minus(Duration.ofHours(2)), "engineers")));
        refused.put("wrong_audience", idp.signCorp(idp.access("alice", now, "engineers").audience("someone-else")));
        refused.put("unknown_issuer", idp.signCorp(idp.access("alice", now, "engineers").issuer("https://idp.evil.example")));
        refused.put("unsupported_token_algorithm", TokenIssuers.unsigned(idp.access("alice", now, "engineers")));
        refused.put("unsupported_token_algorithm/hs256", idp.signHs256WithPublicKey(idp.access("alice", now, "engineers")));
        refused.put("unknown_signing_key", idp.signWithUnknownKid(idp.access("alice", now, "engineers")));
        refused.put("invalid_signature", idp.signWithStrangerKey(idp.access("alice", now, "engineers")));
        refused.put("invalid_signature/tampered", idp.tampered(idp.access("alice", now, "engineers"),
                idp.access("alice", now, "engineers", "limited").claim("admin", true)));
        refused.put("insufficient_scope", idp.signCorp(idp.access("alice", now, "engineers").claim("scope", "openid email")));
        refused.put("claim_mismatch", idp.signK8s(idp.serviceAccount("default", "trainer", now)));
        refused.put("token_expired/k8s", idp.signK8s(idp.serviceAccount("ml", "trainer", now.minus(Duration.ofHours(3)))
                .expirationTime(Date.from(now.minus(Duration.ofHours(2))))));

        for (Map.Entry<String, String> e : refused.entrySet()) {
            String code = e.getKey().split("/")[0];
            String token = e.getValue();
            HttpResponse<String> c = chat(token);
            assertThat(c.statusCode()).as(e.getKey() + ": " + c.body()).isEqualTo(401);
            JsonNode error = Json.parseOrNull(c.body()).path("error");
            assertThat(error.path("code").asText()).as(e.getKey()).isEqualTo(code);
            assertThat(error.path("type").asText()).as(e.getKey()).isEqualTo("invalid_request_error");
            assertThat(c.headers().firstValue("www-authenticate")).as(e.getKey()).isPresent();
            assertThat(c.body()).doesNotContain(token).doesNotContain(token.split("\\.")[1]);

            HttpResponse<String> m = messages(token);
            assertThat(m.statusCode()).as(e.getKey() + ": " + m.body()).isEqualTo(401);
            JsonNode body = Json.parseOrNull(m.body());
            assertThat(body.path("type").asText()).isEqualTo("error");
            assertThat(body.at("/error/type").asText()).as(e.getKey()).isEqualTo("authentication_error");
            assertThat(body.at("/error/message").asText()).isEqualTo(error.path("message").asText());
            assertThat(m.body()).doesNotContain(token.split("\\.")[1]);
        }
    }

    @Test
    void aMappingThatNamesAnUnknownTeamRefusesNamingIt() throws Exception {
        HttpResponse<String> r = chat(idp.signCorp(idp.access("ghost", clock.instant(), "ghosts")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("unknown_team");
        assertThat(error.path("message").asText()).contains("no-such-team");
        assertThat(userId("corp:ghost")).as("no user made for a refused token").isNull();
    }

    @Test
    void aPerUserBudgetFromTheMappingIsThatUsersOwn() throws Exception {
        String gina = idp.signCorp(idp.access("gina", clock.instant(), "frugal"));
        String hank = idp.signCorp(idp.access("hank", clock.instant(), "frugal"));
        assertThat(chat(gina).statusCode()).isEqualTo(200);
        h.awaitLedgerWritten();
        HttpResponse<String> spent = chat(gina);
        assertThat(spent.statusCode()).as(spent.body()).isEqualTo(429);
        assertThat(Json.parseOrNull(spent.body()).at("/error/code").asText()).isEqualTo("insufficient_quota");
        assertThat(chat(hank).statusCode()).as("hank's budget is his own").isEqualTo(200);
    }

    @Test
    void aKeyRotationAtTheProviderIsPickedUpWithoutARestart() throws Exception {
        // past the hour a key set is kept: this call reads the provider's set afresh, now
        clock.advance(Duration.ofHours(1).plusSeconds(1));
        assertThat(chat(alice()).statusCode()).isEqualTo(200);
        int port = h.gateway.port();
        int fetches = idp.corpKeyFetches.get();

        idp.rotateCorpKey("corp-rotated-" + System.nanoTime());
        String signedWithTheNewKey = alice();
        // read less than MIN_REFETCH ago (by the accounts' clock): an unknown kid does not make it read again yet
        HttpResponse<String> tooSoon = chat(signedWithTheNewKey);
        assertThat(tooSoon.statusCode()).as(tooSoon.body()).isEqualTo(401);
        assertThat(Json.parseOrNull(tooSoon.body()).at("/error/code").asText()).isEqualTo("unknown_signing_key");
        assertThat(idp.corpKeyFetches.get()).isEqualTo(fetches);

        clock.advance(JwksCache.MIN_REFETCH.plusSeconds(1));
        HttpResponse<String> after = chat(signedWithTheNewKey);
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
        assertThat(idp.corpKeyFetches.get()).isEqualTo(fetches + 1);
        assertThat(h.gateway.port()).as("the same process").isEqualTo(port);
    }

    /**
     * A token whose signature was verified is not verified again for {@link VerifiedTokens#KEEP} (the same token on
     * every call costs its RSA check once), yet its times are: it expires on time while kept; and a key the provider
     * withdraws stops it once the verification is older than KEEP.
     */
    @Test
    void aVerifiedTokenIsKeptAFewMinutesAndStillExpiresOnTime() throws Exception {
        Instant now = clock.instant();
        String kept = idp.signCorp(idp.access("alice", now, "engineers").expirationTime(Date.from(now.plus(Duration.ofHours(3))))
                .jwtID("jti-kept-" + System.nanoTime()));
        String shortLived = idp.signCorp(idp.access("alice", now, "engineers").expirationTime(Date.from(now.plus(Duration.ofMinutes(2))))
                .jwtID("jti-short-" + System.nanoTime()));
        assertThat(chat(kept).statusCode()).isEqualTo(200);
        assertThat(chat(shortLived).statusCode()).isEqualTo(200);

        // the provider withdraws the key they were signed with, and the gateway reads its new set
        idp.rotateCorpKey("corp-withdrawn-" + System.nanoTime());
        clock.advance(JwksCache.MIN_REFETCH.plusSeconds(1));
        int fetches = idp.corpKeyFetches.get();
        assertThat(chat(alice()).statusCode()).isEqualTo(200);
        assertThat(idp.corpKeyFetches.get()).as("the new key's kid made the set be read again").isEqualTo(fetches + 1);
        HttpResponse<String> stillKept = chat(kept);
        assertThat(stillKept.statusCode()).as("verified a moment ago: its signature is not checked again yet").isEqualTo(200);

        clock.advance(Duration.ofMinutes(2));
        HttpResponse<String> expired = chat(shortLived);
        assertThat(expired.statusCode()).as("kept, but past its exp").isEqualTo(401);
        assertThat(Json.parseOrNull(expired.body()).at("/error/code").asText()).isEqualTo("token_expired");

        clock.advance(VerifiedTokens.KEEP);
        HttpResponse<String> withdrawn = chat(kept);
        assertThat(withdrawn.statusCode()).as("verified again: its key is gone from the provider's set").isEqualTo(401);
        assertThat(Json.parseOrNull(withdrawn.body()).at("/error/code").asText()).isEqualTo("unknown_signing_key");
    }

    @Test
    void aJwtFromAnUntrustedIssuerIsNeverTriedAsAKey() {
        // the very string is an accepted master key (server.previous_master_keys), yet as a JWT it is only a token
        for (HttpResponse<String> r : List.of(chat(jwtShapedMasterKey),
                h.send("GET", "/api/v1/admin/keys", null, "authorization", "Bearer " + jwtShapedMasterKey))) {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
            assertThat(Json.parseOrNull(r.body()).at("/error/code").asText()).isEqualTo("unknown_issuer");
        }
    }

    @Test
    void aDeactivatedUserIsRefusedWithinSeconds() throws Exception {
        String frank = idp.signCorp(idp.access("frank", clock.instant(), "engineers"));
        assertThat(chat(frank).statusCode()).isEqualTo(200);
        try (Connection c = DriverManager.getConnection(h.databaseUrl);
             PreparedStatement ps = c.prepareStatement("UPDATE users SET active = 0 WHERE user_name = ?")) {
            ps.setString(1, "corp:frank");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        clock.advance(Duration.ofSeconds(3)); // past the user cache
        Eventually.until("frank refused", () -> chat(frank).statusCode() == 401);
        HttpResponse<String> r = chat(frank);
        assertThat(Json.parseOrNull(r.body()).at("/error/code").asText()).isEqualTo("user_deactivated");
    }
}
