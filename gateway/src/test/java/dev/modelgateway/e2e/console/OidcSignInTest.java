package dev.modelgateway.e2e.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Console sign-in over HTTP against a real OpenID provider (the oidc-provider npm package, {@link OidcTestProvider}):
 * a good sign-in and what its session may do, and every refusal: a wrong or replayed state, a state from another
 * browser, an issuer mix-up (RFC 9207), a nonce that is not the sign-in's, a person no role maps, a deactivated one;
 * a rotated signing key picked up; CSRF; a forged Host; idle and absolute expiry by the accounts' clock; sign-out.
 * The tests that move the clock by hours run last (the provider's ID tokens live an hour of real time).
 */
@E2e
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OidcSignInTest {
    static final TestClock CLOCK = new TestClock(Instant.now());
    static Vertx vertx;
    static VendorSimulator sim;
    static OidcTestProvider idp;
    /** A second provider: people may sign in with either. */
    static OidcTestProvider partner;
    static GatewayHarness h;
    static String base;
    static Path file;
    static String teamA;

    @BeforeAll
    static void start() throws Exception {
        int port = FreePort.pick();
        base = "http://127.0.0.1:" + port;
        idp = OidcTestProvider.start(base, "test");
        partner = OidcTestProvider.start(base, "partner");
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway-sso", ".yaml");
        write("team_not_yet");
        h = GatewayHarness.builder().simulator(sim).port(port).accountsClock(CLOCK).configFile(file)
                .setting("GATEWAY_SERVER_PUBLIC_URL", base).start();
        teamA = Json.MAPPER.readTree(h.send("POST", "/api/v1/admin/teams", "{\"name\":\"A\"}", "authorization", "Bearer " + GatewayHarness.KEY).body())
                .path("id").asText();
        write(teamA);
        assertThat(h.send("POST", "/api/v1/admin/reload", null, "authorization", "Bearer " + GatewayHarness.KEY).statusCode()).isEqualTo(200);
    }

    /** Both providers; the partner's people are named by their subject, and only its viewers get a role from it. */
    static void write(String team) throws Exception {
        String identity = idp.identityYaml("test", team).replace("  role_mappings:\n", "      partner:\n"
                + "        issuer: " + partner.issuer + "\n"
                + "        client_id: " + OidcTestProvider.CLIENT_ID + "\n"
                + "        client_secret: " + OidcTestProvider.CLIENT_SECRET + "\n"
                + "        display_name: Partner IdP\n"
                + "        user_name_claim: sub\n"
                + "  role_mappings:\n"
                + "    - {provider: partner, claim: groups, equals: gw-viewers, role: viewer}\n");
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n  master_key: " + GatewayHarness.KEY + "\n  public_url: " + base
                + "\n" + identity);
    }

    @AfterAll
    static void stop() throws Exception {
        if (h != null) h.close();
        if (sim != null) sim.close().await();
        if (vertx != null) vertx.close().await();
        if (idp != null) idp.close();
        if (partner != null) partner.close();
        if (file != null) Files.deleteIfExists(file);
    }

    static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    @Order(1)
    void theProvidersAreListedForTheConsole() throws Exception {
        JsonNode list = json(new SignInFlow(base).get(base + "/auth/providers"));
        assertThat(list.path("data").findValuesAsText("id")).containsExactly("partner", "test");
        assertThat(list.path("data").get(1).path("name").asText()).isEqualTo("Test IdP");
        assertThat(list.path("data").get(1).path("login_url").asText()).isEqualTo("/auth/oidc/test/login");
    }

    @Test
    @Order(2)
    void aGoodSignInOpensASessionThatAdministersButCallsNoModel() throws Exception {
        SignInFlow browser = new SignInFlow(base);
        HttpResponse<String> start = browser.get(base + "/auth/oidc/test/login");
        Map<String, String> q = SignInFlow.query(SignInFlow.location(start, base));
        assertThat(q).containsEntry("response_type", "code").containsEntry("client_id", OidcTestProvider.CLIENT_ID)
                .containsEntry("code_challenge_method", "S256").containsEntry("redirect_uri", base + "/auth/oidc/test/callback")
                .containsKeys("state", "nonce", "code_challenge");
        assertThat(start.headers().allValues("set-cookie")).anySatisfy(c -> assertThat(c).startsWith("mg_signin=")
                .containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Lax"));

        SignInFlow.Outcome out = browser.signIn("alice");
        assertThat(out.signedIn()).as(out.answer().body()).isTrue();
        assertThat(out.answer().headers().allValues("set-cookie")).anySatisfy(c -> assertThat(c).startsWith("mg_session=")
                .containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict").contains("Path=/").doesNotContain("Secure"));

        JsonNode me = json(browser.get(base + "/api/v1/console/me"));
        assertThat(me.path("kind").asText()).isEqualTo("user");
        assertThat(me.path("name").asText()).isEqualTo("Alice Admin");
        assertThat(me.path("grants").get(0).path("role").asText()).isEqualTo("org_admin");
        assertThat(me.path("permissions").path("teams:write").path("org").asBoolean()).isTrue();
        String csrf = me.path("csrf_token").asText();
        assertThat(csrf).hasSizeGreaterThan(20);
        assertThat(browser.get(base + "/api/v1/admin/keys").statusCode()).isEqualTo(200);

        // the cookie is no credential for a model call, whatever path leads there
        assertThat(browser.get(base + "/api/v1/models").statusCode()).isEqualTo(401);
        for (String path : List.of("/api/v1/admin/../models", "/api/v1/console/%2e%2e/models", "/api/v1/admin/..%2fmodels")) {
            assertThat(raw(path, "mg_session=" + browser.cookie("mg_session"))).as(path).matches("(?s)HTTP/1.1 (401|404|400) .*");
        }

        // changes need the session's CSRF token, and the gateway's own origin when an Origin is sent
        HttpResponse<String> noToken = browser.send("POST", base + "/api/v1/admin/teams", "{\"name\":\"no-token\"}");
        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(json(noToken).path("error").path("code").asText()).isEqualTo("csrf_failed");
        HttpResponse<String> wrongToken = browser.send("POST", base + "/api/v1/admin/teams", "{\"name\":\"wrong\"}", "x-csrf-token", csrf + "x");
        assertThat(wrongToken.statusCode()).isEqualTo(403);
        HttpResponse<String> otherOrigin = browser.send("POST", base + "/api/v1/admin/teams", "{\"name\":\"evil\"}",
                "x-csrf-token", csrf, "origin", "http://evil.example");
        assertThat(otherOrigin.statusCode()).isEqualTo(403);
        HttpResponse<String> good = browser.send("POST", base + "/api/v1/admin/teams", "{\"name\":\"by-alice\"}",
                "x-csrf-token", csrf, "origin", base);
        assertThat(good.statusCode()).as(good.body()).isBetween(200, 201);
        // the audit log names the person, the role the change was made under and where it came from
        String teamId = json(good).path("id").asText();
        JsonNode entry = json(h.send("GET", "/api/v1/admin/audit?target_id=" + teamId, null, "authorization", "Bearer " + GatewayHarness.KEY))
                .path("data").get(0);
        assertThat(entry.path("action").asText()).isEqualTo("team.create");
        assertThat(entry.path("actor").asText()).isEqualTo(me.path("id").asText());
        assertThat(entry.path("actor_kind").asText()).isEqualTo("user");
        assertThat(entry.path("actor_name").asText()).isEqualTo("Alice Admin");
        assertThat(entry.path("actor_role").asText()).isEqualTo("org_admin");
        assertThat(entry.path("source").asText()).isEqualTo("127.0.0.1");
        // a bearer request meets no CSRF check
        assertThat(h.send("POST", "/api/v1/admin/teams", "{\"name\":\"by-master\"}", "authorization", "Bearer " + GatewayHarness.KEY)
                .statusCode()).isBetween(200, 201);
    }

    @Test
    @Order(3)
    void aWrongStateOrOneFromAnotherBrowserIsRefusedAndAStateWorksOnce() throws Exception {
        SignInFlow.Outcome wrong = new SignInFlow(base).signIn("carol", u -> u, u -> SignInFlow.withParam(u, "state", "forged"));
        assertThat(wrong.answer().statusCode()).isEqualTo(400);
        assertThat(wrong.answer().body()).contains("unknown, was used already");

        SignInFlow.Outcome good = new SignInFlow(base).signIn("carol");
        assertThat(good.signedIn()).isTrue();
        // the same answer again, even with the browser's binding cookie: the state was taken
        SignInFlow replay = new SignInFlow(base);
        HttpResponse<String> again = replay.get(good.callbackUrl(), "cookie", "mg_signin=" + good.bindingCookie());
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.headers().allValues("set-cookie")).noneMatch(c -> c.startsWith("mg_session="));

        // an answer carried to another browser (no binding cookie) is refused
        SignInFlow[] victim = new SignInFlow[1];
        SignInFlow attacker = new SignInFlow(base);
        String[] stolen = new String[1];
        attacker.signIn("carol", u -> u, u -> {
            stolen[0] = u;
            return base + "/auth/oidc/test/callback?error=interrupted";
        });
        victim[0] = new SignInFlow(base);
        HttpResponse<String> elsewhere = victim[0].get(stolen[0]);
        assertThat(elsewhere.statusCode()).isEqualTo(400);
        assertThat(elsewhere.body()).contains("not started in this browser");
    }

    @Test
    @Order(4)
    void theProvidersErrorIsShownPlainly() throws Exception {
        HttpResponse<String> r = new SignInFlow(base).get(base + "/auth/oidc/test/callback?error=access_denied&error_description=no%3Cb%3E");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("access_denied").contains("no&lt;b&gt;").doesNotContain("<b>");
    }

    @Test
    @Order(5)
    void anotherIssuerOrAMissingIssIsRefused() throws Exception {
        SignInFlow.Outcome mixUp = new SignInFlow(base).signIn("carol", u -> u, u -> SignInFlow.withParam(u, "iss", "https://evil.example"));
        assertThat(mixUp.answer().statusCode()).isEqualTo(400);
        assertThat(mixUp.answer().body()).contains("another issuer");
        SignInFlow.Outcome missing = new SignInFlow(base).signIn("carol", u -> u, u -> SignInFlow.withParam(u, "iss", null));
        assertThat(missing.answer().statusCode()).isEqualTo(400);
        assertThat(missing.answer().body()).contains("RFC 9207");
    }

    @Test
    @Order(6)
    void anIdTokenWithAnotherNonceIsRefused() throws Exception {
        SignInFlow.Outcome out = new SignInFlow(base).signIn("carol", u -> SignInFlow.withParam(u, "nonce", "not-the-sign-ins"), u -> u);
        assertThat(out.answer().statusCode()).isEqualTo(400);
        assertThat(out.answer().body()).contains("nonce");
    }

    @Test
    @Order(7)
    void aPersonNoRuleMapsGetsNoUserRecord() throws Exception {
        SignInFlow.Outcome out = new SignInFlow(base).signIn("dave");
        assertThat(out.answer().statusCode()).isEqualTo(403);
        assertThat(out.answer().body()).contains("no role");
        assertThat(count("SELECT COUNT(*) FROM users WHERE user_name = 'dave@example.com'")).isZero();
    }

    @Test
    @Order(8)
    void aForgedHostChangesNoRedirectUri() throws Exception {
        int port = h.gateway.port();
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(("GET /auth/oidc/test/login HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n"
                    + "X-Forwarded-Proto: https\r\nForwarded: host=evil.example\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String location = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).lines()
                    .filter(l -> l.toLowerCase().startsWith("location:")).findFirst().orElseThrow().substring(9).trim();
            assertThat(SignInFlow.query(location)).containsEntry("redirect_uri", base + "/auth/oidc/test/callback");
            assertThat(location).doesNotContain("evil");
        }
    }

    @Test
    @Order(9)
    void aRotatedSigningKeyIsPickedUp() throws Exception {
        assertThat(new SignInFlow(base).signIn("carol").signedIn()).isTrue();
        idp.rotateKey();
        // an unknown kid fetches the keys again, but not twice within 10 s (by the accounts' clock)
        CLOCK.advance(Duration.ofSeconds(11));
        SignInFlow.Outcome rotated = new SignInFlow(base).signIn("carol");
        assertThat(rotated.signedIn()).as(rotated.answer().body()).isTrue();
        idp.rotateKey();
        SignInFlow.Outcome tooSoon = new SignInFlow(base).signIn("carol");
        assertThat(tooSoon.answer().statusCode()).isEqualTo(400);
        assertThat(tooSoon.answer().body()).contains("does not publish");
        CLOCK.advance(Duration.ofSeconds(11));
        assertThat(new SignInFlow(base).signIn("carol").signedIn()).isTrue();
    }

    @Test
    @Order(10)
    void signOutEndsTheSessionAndAnswersTheProvidersLogout() throws Exception {
        SignInFlow browser = new SignInFlow(base);
        assertThat(browser.signIn("carol").signedIn()).isTrue();
        String cookie = browser.cookie("mg_session");
        String csrf = json(browser.get(base + "/api/v1/console/me")).path("csrf_token").asText();
        assertThat(browser.send("POST", base + "/auth/logout", null).statusCode()).isEqualTo(403);
        HttpResponse<String> out = browser.send("POST", base + "/auth/logout", null, "x-csrf-token", csrf);
        assertThat(out.statusCode()).isEqualTo(200);
        String url = json(out).path("logout_url").asText();
        assertThat(url).startsWith(idp.issuer + "/session/end?");
        assertThat(SignInFlow.query(url)).containsKey("id_token_hint").containsEntry("client_id", OidcTestProvider.CLIENT_ID)
                .containsEntry("post_logout_redirect_uri", base + "/console/");
        HttpResponse<String> after = new SignInFlow(base).get(base + "/api/v1/console/me", "cookie", "mg_session=" + cookie);
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(json(after).path("error").path("code").asText()).isEqualTo("session_expired");
    }

    @Test
    @Order(11)
    void aDeactivatedUsersSessionIsRefusedWithinTheRecheckAndTheySignInNoMore() throws Exception {
        SignInFlow browser = new SignInFlow(base);
        assertThat(browser.signIn("bob").signedIn()).isTrue();
        assertThat(browser.get(base + "/api/v1/console/me").statusCode()).isEqualTo(200);
        update("UPDATE users SET active = 0 WHERE user_name = 'bob@example.com'");
        CLOCK.advance(Duration.ofSeconds(2));
        assertThat(browser.get(base + "/api/v1/console/me").statusCode()).isEqualTo(401);
        SignInFlow.Outcome again = new SignInFlow(base).signIn("bob");
        assertThat(again.answer().statusCode()).isEqualTo(403);
        assertThat(again.answer().body()).contains("deactivated");
        update("UPDATE users SET active = 1 WHERE user_name = 'bob@example.com'");
    }

    /**
     * Issue 33: deactivating a person at the identity provider (its SCIM client sets {@code active: false}) ends their
     * console session within {@code console.session_recheck_seconds} (2 s, under the 5 s asked) and their own keys at
     * once; reactivating gives the keys back, not the session.
     */
    @Test
    @Order(13)
    void scimDeactivationEndsThePersonsSessionAndOwnKeys() throws Exception {
        SignInFlow browser = new SignInFlow(base);
        assertThat(browser.signIn("erin").signedIn()).isTrue();
        JsonNode me = json(browser.get(base + "/api/v1/console/me"));
        assertThat(me.path("grants").findValuesAsText("role")).containsExactly("member");
        String csrf = me.path("csrf_token").asText();
        HttpResponse<String> created = browser.send("POST", base + "/api/v1/admin/keys", "{\"name\":\"erins-notebook\"}", "x-csrf-token", csrf);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String secret = json(created).path("key").asText();
        String userId = me.path("id").asText();
        assertThat(json(created).path("owner_user_id").asText()).isEqualTo(userId);
        assertThat(json(created).path("team_id").asText()).isEqualTo(teamA);
        assertThat(h.send("GET", "/api/v1/models", null, "authorization", "Bearer " + secret).statusCode()).isEqualTo(200);

        String patch = "{\"schemas\":[\"urn:ietf:params:scim:api:messages:2.0:PatchOp\"],"
                + "\"Operations\":[{\"op\":\"replace\",\"value\":{\"active\":false}}]}";
        HttpResponse<String> deactivated = h.send("PATCH", "/api/v1/scim/v2/Users/" + userId, patch, "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(deactivated.statusCode()).as(deactivated.body()).isEqualTo(200);
        // the key at once, on the very next request
        HttpResponse<String> keyAfter = h.send("GET", "/api/v1/models", null, "authorization", "Bearer " + secret);
        assertThat(keyAfter.statusCode()).isEqualTo(401);
        assertThat(json(keyAfter).at("/error/code").asText()).isEqualTo("api_key_disabled");
        // the session once its recheck is due: 2 s on the accounts' clock, never more than 5
        CLOCK.advance(Duration.ofMillis(1999));
        assertThat(browser.get(base + "/api/v1/console/me").statusCode()).as("within the recheck the cached session stands").isEqualTo(200);
        CLOCK.advance(Duration.ofMillis(1));
        HttpResponse<String> sessionAfter = browser.get(base + "/api/v1/console/me");
        assertThat(sessionAfter.statusCode()).isEqualTo(401);
        assertThat(new SignInFlow(base).signIn("erin").answer().statusCode()).isEqualTo(403);

        String back = patch.replace("false", "true");
        assertThat(h.send("PATCH", "/api/v1/scim/v2/Users/" + userId, back, "authorization", "Bearer " + GatewayHarness.KEY).statusCode())
                .isEqualTo(200);
        assertThat(h.send("GET", "/api/v1/models", null, "authorization", "Bearer " + secret).statusCode()).isEqualTo(200);
        assertThat(browser.get(base + "/api/v1/console/me").statusCode()).as("a session ended stays ended").isEqualTo(401);
    }

    @Test
    @Order(12)
    void aSecondProvidersPeopleSignInThereAndItsAnswersAreNotTheFirstOnes() throws Exception {
        // the partner's carol is another person than the first provider's: named by her subject there
        SignInFlow browser = new SignInFlow(base, "partner");
        SignInFlow.Outcome out = browser.signIn("carol");
        assertThat(out.signedIn()).as(out.answer().body()).isTrue();
        JsonNode me = json(browser.get(base + "/api/v1/console/me"));
        assertThat(me.path("grants").findValuesAsText("role")).containsExactly("viewer");
        assertThat(count("SELECT COUNT(*) FROM users WHERE user_name = 'carol'")).isEqualTo(1);
        // alice is gw-admins at the partner too, but only the first provider's groups make an org admin
        SignInFlow.Outcome alice = new SignInFlow(base, "partner").signIn("alice");
        assertThat(alice.answer().statusCode()).isEqualTo(403);
        // an answer to the first provider's sign-in that names the partner as its issuer: a mix-up, refused
        SignInFlow.Outcome mixUp = new SignInFlow(base).signIn("carol", u -> u, u -> SignInFlow.withParam(u, "iss", partner.issuer));
        assertThat(mixUp.answer().statusCode()).isEqualTo(400);
        assertThat(mixUp.answer().body()).contains("another issuer");
    }

    @Test
    @Order(20)
    void aSessionUnusedForTheIdleTimeEnds() throws Exception {
        SignInFlow browser = new SignInFlow(base);
        assertThat(browser.signIn("carol").signedIn()).isTrue();
        for (int i = 0; i < 3; i++) {
            CLOCK.advance(Duration.ofSeconds(1700));
            assertThat(browser.get(base + "/api/v1/console/me").statusCode()).as("used every 1700 s").isEqualTo(200);
        }
        CLOCK.advance(Duration.ofSeconds(1800));
        assertThat(browser.get(base + "/api/v1/console/me").statusCode()).isEqualTo(401);
    }

    @Test
    @Order(21)
    void aSessionEndsAtItsAbsoluteExpiryHoweverUsed() throws Exception {
        SignInFlow browser = new SignInFlow(base);
        assertThat(browser.signIn("carol").signedIn()).isTrue();
        long used = 0;
        while (used + 1500 < 28_800) {
            CLOCK.advance(Duration.ofSeconds(1500));
            used += 1500;
            assertThat(browser.get(base + "/api/v1/console/me").statusCode()).as("after %d s", used).isEqualTo(200);
        }
        CLOCK.advance(Duration.ofSeconds(28_800 - used));
        assertThat(browser.get(base + "/api/v1/console/me").statusCode()).isEqualTo(401);
    }

    /** A GET as sent, its path not normalised by any client, with a cookie: the status line and the rest of the answer. */
    static String raw(String path, String cookie) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", h.gateway.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + cookie
                    + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    static long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(h.databaseUrl); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void update(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(h.databaseUrl); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.executeUpdate();
        }
    }
}
