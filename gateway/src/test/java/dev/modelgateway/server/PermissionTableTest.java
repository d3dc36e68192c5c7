package dev.modelgateway.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Role;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every admin, console and SCIM route × every kind of credential (docs/identity/roles.md), over the gateway's own
 * router: a route without a declared permission fails here; no credential or an unknown one is a 401; a platform key
 * a 403 but on {@link Permission#SELF} routes; the master key passes; an admin key made with each role, and a few
 * with a single permission, passes (2xx, on a real object) exactly where its permissions hold the route's, else a
 * 403 {@code permission_denied}. Forged {@code Host} and {@code X-Forwarded-*} headers and path variants change
 * nothing. Then what a team admin's reach keeps it from.
 */
@E2e
class PermissionTableTest {
    static final String MODEL = "platform/vendorB-5.5";
    static Vertx vertx;
    static VendorSimulator sim;
    static Path file;
    static GatewayHarness h;
    static String teamX;
    static String teamY;
    static String platformKey;
    static String teamXGroup;
    static final String SCIM_USER = "urn:ietf:params:scim:schemas:core:2.0:User";
    static final String SCIM_GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
    static final String SCIM_PATCH = "urn:ietf:params:api:messages:2.0:PatchOp";
    private static final java.util.concurrent.atomic.AtomicInteger FRESH = new java.util.concurrent.atomic.AtomicInteger();
    static String platformRequest;
    /** The admin keys' secrets by credential name, with the permissions each holds. */
    static final Map<String, String> SECRETS = new LinkedHashMap<>();
    static final Map<String, Set<Permission>> HOLDS = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway", ".yaml");
        // a configuration file, so that POST /admin/reload has something to apply and succeeds
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n  master_key: " + GatewayHarness.KEY + "\n");
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        teamX = master("POST", "/api/v1/admin/teams", "{\"name\":\"x\",\"rpm\":100,\"tpm\":100000,\"budget_usd\":\"50\"}").path("id").asText();
        teamY = master("POST", "/api/v1/admin/teams", "{\"name\":\"y\"}").path("id").asText();
        platformKey = master("POST", "/api/v1/admin/keys", "{\"name\":\"plain\",\"team_id\":\"" + teamX + "\"}").path("key").asText();
        // people of team x: SCIM group "x-members" maps to member(team:x), so team x's admin reaches them
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n  master_key: " + GatewayHarness.KEY + "\n"
                + "identity:\n  role_mappings:\n    - {claim: groups, equals: x-members, role: member, team: " + teamX + "}\n");
        master("POST", "/api/v1/admin/reload", "");
        teamXGroup = master("POST", "/api/v1/scim/v2/Groups", "{\"schemas\":[\"" + SCIM_GROUP + "\"],\"displayName\":\"x-members\"}")
                .path("id").asText();
        h.openai(platformKey).chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("hi").build());
        Eventually.until("the call is in the ledger", Duration.ofSeconds(10), () -> get(platformKey, "/api/v1/console/requests").path("data").size() == 1);
        platformRequest = get(platformKey, "/api/v1/console/requests").at("/data/0/id").asText();

        adminKey("org_admin", "{\"role\":\"org_admin\"}", Role.ORG_ADMIN.permissions);
        adminKey("team_admin(team:x)", "{\"role\":\"team_admin\",\"scope\":\"team:" + teamX + "\"}", Role.TEAM_ADMIN.permissions);
        adminKey("viewer", "{\"role\":\"viewer\"}", Role.VIEWER.permissions);
        adminKey("billing_viewer", "{\"role\":\"billing_viewer\"}", Role.BILLING_VIEWER.permissions);
        adminKey("auditor", "{\"role\":\"auditor\"}", Role.AUDITOR.permissions);
        for (Permission p : List.of(Permission.KEYS_WRITE, Permission.AUDIT_READ, Permission.ADMIN_KEYS_WRITE, Permission.CONFIG_WRITE,
                Permission.SCIM, Permission.USERS_WRITE)) {
            adminKey(p.wire, "{\"permissions\":[\"" + p.wire + "\"]}", EnumSet.of(p));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (h != null) h.close();
        sim.close().await();
        vertx.close().await();
        Files.deleteIfExists(file);
    }

    private static void adminKey(String name, String grant, Set<Permission> holds) {
        ObjectNodeBody body = new ObjectNodeBody(grant).with("name", "table " + name);
        JsonNode created = master("POST", "/api/v1/admin/admin-keys", body.text());
        SECRETS.put(name, created.path("key").asText());
        HOLDS.put(name, holds);
    }

    /** A tiny JSON merge for the set-up's bodies. */
    private record ObjectNodeBody(String json) {
        ObjectNodeBody with(String field, String value) {
            var node = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parseOrNull(json);
            node.put(field, value);
            return new ObjectNodeBody(node.toString());
        }

        String text() {
            return json;
        }
    }

    static JsonNode master(String method, String path, String body) {
        HttpResponse<String> r = h.send(method, path, body, "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isBetween(200, 299);
        return Json.parseOrNull(r.body());
    }

    static JsonNode get(String key, String path) {
        return Json.parseOrNull(h.send("GET", path, null, "authorization", "Bearer " + key).body());
    }

    /** Every declared route of the router (method, pattern, permission), and those under the administrative prefixes without one. */
    static List<Object[]> declared() {
        List<Object[]> routes = new ArrayList<>();
        for (Route r : h.gateway.routes()) {
            Object permission = r.getMetadata(GatewayRouter.PERMISSION);
            if (permission == null || r.getPath() == null) continue;
            for (HttpMethod m : r.methods()) routes.add(new Object[]{m.name(), r.getPath(), permission});
        }
        return routes;
    }

    @Test
    void everyAdministrativeRouteDeclaresAPermission() {
        List<String> without = new ArrayList<>();
        for (Route r : h.gateway.routes()) {
            String path = r.getPath();
            if (path == null || r.getMetadata(GatewayRouter.PERMISSION) != null) continue;
            for (String prefix : GatewayRouter.ADMINISTRATIVE) if (path.startsWith(prefix)) without.add(r.methods() + " " + path);
        }
        assertThat(without).as("administrative routes without a declared permission").isEmpty();
        assertThat(declared()).extracting(r -> r[0] + " " + r[1]).contains("POST /api/v1/admin/keys", "PATCH /api/v1/admin/teams/:id",
                "GET /api/v1/admin/config", "POST /api/v1/admin/reload", "POST /api/v1/admin/admin-keys/:id/rotate",
                "GET /api/v1/console/audit", "GET /api/v1/usage", "PATCH /api/v1/scim/v2/Users/:id", "PATCH /api/v1/admin/users/:id");
    }

    /** docs/identity/roles.md says which permission each route needs and each role holds, as the code does. */
    @Test
    void theRolesDocMatchesTheRouterAndTheRoles() throws Exception {
        String doc = Files.readString(docs().resolve("identity/roles.md"));
        for (Object[] r : declared()) {
            assertThat(doc).as("docs/identity/roles.md's route table").contains("| `" + r[0] + " " + r[1] + "` | `" + ((Permission) r[2]).wire + "` |");
        }
        List<String> columns = new ArrayList<>();
        for (Permission p : Permission.values()) columns.add(p.wire);
        for (Role role : Role.values()) {
            String row = doc.lines().filter(l -> l.startsWith("| `" + role.wire + "` |")).findFirst().orElseThrow(() -> new AssertionError("no row for " + role.wire));
            String[] cells = row.split("\\|", -1);
            for (int i = 0; i < columns.size(); i++) {
                boolean marked = cells[i + 3].strip().equals("✓");
                assertThat(marked).as(role.wire + " / " + columns.get(i)).isEqualTo(role.permissions.contains(Permission.values()[i]));
            }
        }
    }

    private static Path docs() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("docs/identity"))) dir = dir.getParent();
        assertThat(dir).as("the repository's docs/").isNotNull();
        return dir.resolve("docs");
    }

    /** The credentials of the table. */
    static List<String> credentials() {
        List<String> all = new ArrayList<>(List.of("none", "unknown", "platform", "master"));
        all.addAll(SECRETS.keySet());
        return all;
    }

    static Stream<Arguments> table() {
        List<Arguments> cases = new ArrayList<>();
        for (Object[] route : declared()) for (String c : credentials()) cases.add(Arguments.of(route[0], route[1], route[2], c));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} ({2}) with {3}")
    @MethodSource("table")
    void oneRule(String method, String pattern, Permission permission, String credential) {
        Request req = request(method, pattern);
        String[] auth = switch (credential) {
            case "none" -> new String[0];
            case "unknown" -> new String[]{"authorization", "Bearer pk-unknown-key"};
            case "platform" -> new String[]{"authorization", "Bearer " + platformKey};
            case "master" -> new String[]{"authorization", "Bearer " + GatewayHarness.KEY};
            default -> new String[]{"authorization", "Bearer " + SECRETS.get(credential)};
        };
        HttpResponse<String> r = h.send(method, req.path, req.body, auth);
        String what = method + " " + req.path + " with " + credential + ": " + r.body();
        JsonNode error = Json.parseOrNull(r.body());
        boolean callerRoute = !BearerAuth.administrative(pattern); // /api/v1/usage, /api/v1/limits: a caller's own
        switch (credential) {
            case "none", "unknown" -> assertThat(r.statusCode()).as(what).isEqualTo(401);
            case "platform" -> {
                if (permission == Permission.SELF) assertThat(r.statusCode()).as(what).isBetween(200, 299);
                else denied(r, what, "permission_denied");
            }
            case "master" -> {
                if (pattern.equals("/api/v1/limits")) {
                    // the master key calls models unlimited: it has no limits of its own to show
                    assertThat(r.statusCode()).as(what).isEqualTo(400);
                    assertThat(error.at("/error/code").asText()).isEqualTo("master_key_unlimited");
                } else {
                    assertThat(r.statusCode()).as(what).isBetween(200, 299);
                }
            }
            default -> {
                // an admin key calls no model: refused on a caller's route before any permission is read
                if (callerRoute) denied(r, what, "not_a_caller_credential");
                else if (!HOLDS.get(credential).contains(permission)) denied(r, what, "permission_denied");
                else if (pattern.equals("/api/v1/console/requests/:id") && !HOLDS.get(credential).contains(Permission.USAGE_READ)) {
                    // let through; but an admin key makes no calls, and the request is the platform key's (in team x,
                    // which team x's admin sees through usage:read)
                    assertThat(r.statusCode()).as(what).isEqualTo(404);
                } else {
                    assertThat(r.statusCode()).as(what).isBetween(200, 299);
                }
            }
        }
    }

    private static void denied(HttpResponse<String> r, String what, String code) {
        assertThat(r.statusCode()).as(what).isEqualTo(403);
        JsonNode body = Json.parseOrNull(r.body());
        if (body.has("schemas")) {
            // SCIM's error shape (RFC 7644 §3.12) has no code: the status and the detail say it
            assertThat(body.path("status").asText()).as(what).isEqualTo("403");
            assertThat(body.path("detail").asText()).as(what).isNotBlank();
        } else {
            assertThat(body.at("/error/code").asText()).as(what).isEqualTo(code);
        }
    }

    record Request(String path, String body) {
    }

    /** A request that succeeds for a principal allowed on the route: real ids (made afresh where the call changes them), valid bodies. */
    static Request request(String method, String pattern) {
        String route = method + " " + pattern;
        return switch (route) {
            case "POST /api/v1/admin/keys" -> new Request(pattern, "{\"name\":\"t\",\"team_id\":\"" + teamX + "\"}");
            case "GET /api/v1/admin/keys/:id", "DELETE /api/v1/admin/keys/:id" -> new Request(withId(pattern, freshKey()), null);
            case "PATCH /api/v1/admin/keys/:id" -> new Request(withId(pattern, freshKey()), "{\"name\":\"renamed\"}");
            case "POST /api/v1/admin/keys/:id/rotate" -> new Request(withId(pattern, freshKey()), "{\"grace_seconds\":60}");
            case "POST /api/v1/admin/teams" -> new Request(pattern, "{\"name\":\"t\"}");
            case "GET /api/v1/admin/teams/:id" -> new Request(withId(pattern, teamX), null);
            case "PATCH /api/v1/admin/teams/:id" -> new Request(withId(pattern, freshTeam()), "{\"name\":\"renamed\"}");
            case "DELETE /api/v1/admin/teams/:id" -> new Request(withId(pattern, freshTeam()), null);
            case "POST /api/v1/admin/reprice" -> new Request(pattern, "{\"from\":\"2026-01-01T00:00:00Z\",\"to\":\"2026-01-02T00:00:00Z\"}");
            case "PATCH /api/v1/admin/alerts/settings" -> new Request(pattern, "{}");
            case "POST /api/v1/admin/reload" -> new Request(pattern, "");
            case "POST /api/v1/admin/admin-keys" -> new Request(pattern, "{\"name\":\"a\",\"permissions\":[\"admin_keys:write\"]}");
            case "GET /api/v1/admin/admin-keys/:id", "DELETE /api/v1/admin/admin-keys/:id" -> new Request(withId(pattern, freshAdminKey()), null);
            case "PATCH /api/v1/admin/admin-keys/:id" -> new Request(withId(pattern, freshAdminKey()), "{\"name\":\"renamed\"}");
            case "POST /api/v1/admin/admin-keys/:id/rotate" -> new Request(withId(pattern, freshAdminKey()), "{\"grace_seconds\":60}");
            case "GET /api/v1/console/requests/:id" -> new Request(withId(pattern, platformRequest), null);
            case "GET /api/v1/admin/users/:id" -> new Request(withId(pattern, freshPerson()), null);
            case "PATCH /api/v1/admin/users/:id" -> new Request(withId(pattern, freshPerson()), "{\"active\":false}");
            case "POST /api/v1/scim/v2/Users" -> new Request(pattern, scimUser());
            case "GET /api/v1/scim/v2/Users/:id", "DELETE /api/v1/scim/v2/Users/:id" -> new Request(withId(pattern, freshPerson()), null);
            case "PUT /api/v1/scim/v2/Users/:id" -> new Request(withId(pattern, freshPerson()), scimUser());
            case "PATCH /api/v1/scim/v2/Users/:id" -> new Request(withId(pattern, freshPerson()),
                    "{\"schemas\":[\"" + SCIM_PATCH + "\"],\"Operations\":[{\"op\":\"replace\",\"value\":{\"active\":false}}]}");
            case "POST /api/v1/scim/v2/Groups" -> new Request(pattern, scimGroup());
            case "GET /api/v1/scim/v2/Groups/:id", "DELETE /api/v1/scim/v2/Groups/:id" -> new Request(withId(pattern, freshGroup()), null);
            case "PUT /api/v1/scim/v2/Groups/:id" -> new Request(withId(pattern, freshGroup()), scimGroup());
            case "PATCH /api/v1/scim/v2/Groups/:id" -> new Request(withId(pattern, freshGroup()),
                    "{\"schemas\":[\"" + SCIM_PATCH + "\"],\"Operations\":[{\"op\":\"replace\",\"path\":\"displayName\",\"value\":\"g-"
                            + FRESH.incrementAndGet() + "\"}]}");
            default -> {
                assertThat(pattern).as("a route of the table without a request: add one").doesNotContain(":");
                yield new Request(pattern, method.equals("GET") || method.equals("DELETE") ? null : "{}");
            }
        };
    }

    private static String withId(String pattern, String id) {
        return pattern.replace(":id", id);
    }

    private static String freshKey() {
        return master("POST", "/api/v1/admin/keys", "{\"name\":\"fresh\",\"team_id\":\"" + teamX + "\"}").path("id").asText();
    }

    private static String scimUser() {
        return "{\"schemas\":[\"" + SCIM_USER + "\"],\"userName\":\"person-" + FRESH.incrementAndGet() + "@example.com\",\"active\":true}";
    }

    private static String scimGroup() {
        return "{\"schemas\":[\"" + SCIM_GROUP + "\"],\"displayName\":\"group-" + FRESH.incrementAndGet() + "\"}";
    }

    /** A person of team x (a member of the group mapped to member(team:x)), whom team x's admin reaches. */
    private static String freshPerson() {
        String id = master("POST", "/api/v1/scim/v2/Users", scimUser()).path("id").asText();
        master("PATCH", "/api/v1/scim/v2/Groups/" + teamXGroup, "{\"schemas\":[\"" + SCIM_PATCH + "\"],\"Operations\":[{\"op\":\"add\","
                + "\"path\":\"members\",\"value\":[{\"value\":\"" + id + "\"}]}]}");
        return id;
    }

    private static String freshGroup() {
        return master("POST", "/api/v1/scim/v2/Groups", scimGroup()).path("id").asText();
    }

    private static String freshTeam() {
        return master("POST", "/api/v1/admin/teams", "{\"name\":\"fresh\"}").path("id").asText();
    }

    private static String freshAdminKey() {
        // a key any holder of admin_keys:write could have made: none manages a stronger one
        return master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"fresh\",\"permissions\":[\"admin_keys:write\"]}").path("id").asText();
    }

    // Forged headers and path variants: authorization reads the dispatched route and the credential alone.

    static final String[][] FORGED = {
            {"Host", "admin.internal"},
            {"X-Forwarded-Host", "admin.internal"},
            {"X-Forwarded-For", "127.0.0.1"},
            {"X-Forwarded-Proto", "https"},
            {"X-Forwarded-Prefix", "/api/v1/console"},
            {"X-Original-URL", "/api/v1/usage"},
            {"X-Rewrite-URL", "/api/v1/usage"},
            {"Forwarded", "for=127.0.0.1;host=admin.internal;proto=https"},
    };

    @Test
    void forgedHeadersChangeNoDecision() throws Exception {
        for (String[] header : FORGED) {
            String what = header[0] + ": " + header[1];
            assertThat(raw("GET", "/api/v1/admin/keys", platformKey, header)).as(what).startsWith("HTTP/1.1 403").contains("permission_denied");
            assertThat(raw("GET", "/api/v1/admin/keys", null, header)).as(what).startsWith("HTTP/1.1 401");
            assertThat(raw("GET", "/api/v1/admin/config", SECRETS.get("viewer"), header)).as(what).startsWith("HTTP/1.1 200");
            assertThat(raw("POST", "/api/v1/admin/reload", SECRETS.get("viewer"), header)).as(what).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void noPathVariantReachesAnAdminHandlerWithoutTheCheck() throws Exception {
        for (String path : List.of("/api/v1/admin//keys", "/api/v1/ADMIN/keys", "/api/v1/%61dmin/keys", "/api/v1/admin/%2e/keys",
                "/api/v1/x/%2e%2e/admin/keys", "/api/v1/x/../admin/keys", "/api/v1/admin/./keys", "/api//v1/admin/keys",
                "/api/v1/admin/keys/", "/api/v1/admin/keys;x=1", "/api/v1/admin/keys%2f")) {
            String answer = raw("GET", path, platformKey);
            assertThat(answer).as(path).matches("(?s)HTTP/1.1 (403|404|400).*").doesNotContain("\"object\":\"list\"");
        }
        // an admin key never reaches a model route through a path that starts as an admin one
        String viaDots = raw("POST", "/api/v1/admin/../chat/completions", SECRETS.get("org_admin"));
        assertThat(viaDots).startsWith("HTTP/1.1 403").contains("not_a_caller_credential");
        String viaEscapes = raw("POST", "/api/v1/admin/%2e%2e/chat/completions", SECRETS.get("org_admin"));
        assertThat(viaEscapes).startsWith("HTTP/1.1 403").contains("not_a_caller_credential");
    }

    /** One HTTP/1.1 exchange on a socket, the request line and headers as given (no client normalises them). */
    static String raw(String method, String path, String key, String[]... headers) throws Exception {
        try (Socket s = new Socket("127.0.0.1", h.gateway.port())) {
            s.setSoTimeout(10_000);
            StringBuilder req = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            boolean host = false;
            for (String[] header : headers) {
                req.append(header[0]).append(": ").append(header[1]).append("\r\n");
                host |= header[0].equalsIgnoreCase("host");
            }
            if (!host) req.append("Host: 127.0.0.1\r\n");
            if (key != null) req.append("Authorization: Bearer ").append(key).append("\r\n");
            if (method.equals("POST")) req.append("Content-Type: application/json\r\nContent-Length: 2\r\n");
            req.append("Connection: close\r\n\r\n");
            if (method.equals("POST")) req.append("{}");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            in.transferTo(got);
            return got.toString(StandardCharsets.UTF_8);
        }
    }
}
