package dev.modelgateway.server;

import dev.modelgateway.access.Actor;

import dev.modelgateway.access.Permission;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one admin rule on every admin route, as the gateway's router holds them (every route under
 * {@code /api/v1/admin/} and every route marked for the master key): no key or an unknown one is a 401, a valid key
 * without the right a 403, the master key passes. A route added without the rule fails here.
 */
@E2e
@ExtendWith(PerClassGateway.class)
class AdminAuthorizationTest {
    static GatewayHarness h;
    static AdminApi admin;
    private static String plainKey;

    enum Credential {
        NO_KEY, UNKNOWN_KEY, VALID_NON_MASTER_KEY, MASTER_KEY
    }

    @BeforeAll
    static void keyWithoutTheRight() {
        plainKey = admin.create("{\"name\":\"not-admin\"}").secret();
    }

    /** Each admin route (method and path, {@code :id} filled in) with each credential. */
    static Stream<Arguments> routesByCredential() {
        List<Arguments> cases = new ArrayList<>();
        for (String[] route : adminRoutes()) {
            for (Credential c : Credential.values()) cases.add(Arguments.of(route[0], route[1], c));
        }
        return cases.stream();
    }

    private static List<String[]> adminRoutes() {
        List<String[]> routes = new ArrayList<>();
        for (Route r : h.gateway.routes()) {
            String path = r.getPath();
            Object permission = r.getMetadata(GatewayRouter.PERMISSION);
            if (path == null || permission == Permission.SELF || permission == null && !path.startsWith("/api/v1/admin/")) continue;
            for (HttpMethod m : r.methods()) routes.add(new String[]{m.name(), path.replace(":id", "nothing_here")});
        }
        return routes;
    }

    @Test
    void theTableCoversTheAdminAndConsoleAdminRoutes() {
        assertThat(adminRoutes()).extracting(r -> r[0] + " " + r[1]).contains("POST /api/v1/admin/keys",
                "PATCH /api/v1/admin/teams/nothing_here", "GET /api/v1/admin/config", "POST /api/v1/admin/reload",
                "POST /api/v1/admin/keys/nothing_here/rotate", "GET /api/v1/console/audit", "GET /api/v1/admin/users",
                "PATCH /api/v1/admin/users/nothing_here", "GET /api/v1/scim/v2/Users", "PATCH /api/v1/scim/v2/Groups/nothing_here",
                "GET /api/v1/scim/v2/ServiceProviderConfig").hasSize(38);
    }

    @ParameterizedTest(name = "{0} {1} with {2}")
    @MethodSource("routesByCredential")
    void oneRule(String method, String path, Credential credential) {
        String body = method.equals("POST") || method.equals("PATCH") ? "{}" : null;
        HttpResponse<String> r = switch (credential) {
            case NO_KEY -> h.send(method, path, body);
            case UNKNOWN_KEY -> h.send(method, path, body, "authorization", "Bearer pk-unknown-key");
            case VALID_NON_MASTER_KEY -> h.send(method, path, body, "authorization", "Bearer " + plainKey);
            case MASTER_KEY -> h.send(method, path, body, "authorization", "Bearer " + GatewayHarness.KEY);
        };
        switch (credential) {
            case NO_KEY, UNKNOWN_KEY -> assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
            case VALID_NON_MASTER_KEY -> {
                assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
                // SCIM answers in RFC 7644's error shape, the rest in the admin API's
                if (path.startsWith("/api/v1/scim/")) assertThat(Json.parseOrNull(r.body()).path("status").asText()).isEqualTo("403");
                else assertThat(Json.parseOrNull(r.body()).at("/error/code").asText()).isEqualTo("permission_denied");
            }
            case MASTER_KEY -> assertThat(r.statusCode()).as(r.body()).isNotIn(401, 403);
        }
    }
}
