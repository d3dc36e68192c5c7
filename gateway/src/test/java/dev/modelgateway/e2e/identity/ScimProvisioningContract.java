package dev.modelgateway.e2e.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SCIM 2.0 provisioning as Okta and Microsoft Entra ID drive it (docs/identity/scim.md), with their own request bodies:
 * users and groups created, changed and removed; groups mapped to roles by {@code identity.role_mappings}; a
 * deactivated user's keys refused from the very next request and working again after a reactivation; every error in
 * SCIM's shape; every change in the audit log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ScimProvisioningContract {
    static final String USER = "urn:ietf:params:scim:schemas:core:2.0:User";
    static final String GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
    Vertx vertx;
    VendorSimulator sim;
    Path file;
    GatewayHarness h;
    AdminApi admin;
    Scim scim;

    /** A gateway builder on the stores under test. */
    abstract GatewayHarness.Builder gateway() throws Exception;

    /** Removes the stores after the gateway has stopped. */
    void closeStores() throws Exception {
    }

    @BeforeAll
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway", ".yaml");
        write("gw-admins", "org_admin");
        h = gateway().simulator(sim).configFile(file).start();
        admin = new AdminApi(h);
        scim = new Scim(h, GatewayHarness.KEY);
    }

    void write(String adminGroup, String role) throws Exception {
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n  master_key: " + GatewayHarness.KEY + "\n"
                + "identity:\n  role_mappings:\n"
                + "    - {claim: groups, equals: " + adminGroup + ", role: " + role + "}\n"
                + "    - {claim: groups, equals: team-a-leads, role: team_admin, team: team_a}\n");
    }

    @AfterAll
    void stop() throws Exception {
        if (h != null) h.close();
        closeStores();
        sim.close().await();
        vertx.close().await();
        Files.deleteIfExists(file);
    }

    /** A call of a model-facing route with a platform key: what its holder sees. */
    HttpResponse<String> useKey(String secret) {
        return h.get("/api/v1/models", "authorization", "Bearer " + secret);
    }

    List<String> auditActions(String targetId) {
        List<String> actions = new ArrayList<>();
        admin.get("/api/v1/admin/audit?target_id=" + targetId).path("data").forEach(e -> actions.add(e.path("action").asText()));
        return actions;
    }

    @Test
    void oktaProvisionsUpdatesDeactivatesAndReactivates() throws Exception {
        // Okta first looks the user up by userName, then creates it (its documented request bodies)
        JsonNode none = scim.get("/Users?" + Scim.filter("userName eq \"dana@example.com\"") + "&startIndex=1&count=100");
        assertThat(none.path("schemas").get(0).asText()).isEqualTo("urn:ietf:params:scim:api:messages:2.0:ListResponse");
        assertThat(none.path("totalResults").asInt()).isZero();
        assertThat(none.path("Resources")).isEmpty();

        String create = "{\"schemas\":[\"" + USER + "\"],\"userName\":\"dana@example.com\",\"name\":{\"givenName\":\"Dana\","
                + "\"familyName\":\"Lee\"},\"emails\":[{\"primary\":true,\"value\":\"dana@example.com\",\"type\":\"work\"}],"
                + "\"displayName\":\"Dana Lee\",\"locale\":\"en-US\",\"externalId\":\"00u1okta\",\"groups\":[],"
                + "\"password\":\"never-kept\",\"active\":true}";
        HttpResponse<String> createdResponse = scim.call("POST", "/Users", create);
        JsonNode created = Scim.expect(createdResponse, 201);
        String id = created.path("id").asText();
        assertThat(id).startsWith("usr_");
        assertThat(createdResponse.headers().firstValue("location")).hasValueSatisfying(l -> assertThat(l).endsWith("/api/v1/scim/v2/Users/" + id));
        assertThat(created.path("userName").asText()).isEqualTo("dana@example.com");
        assertThat(created.at("/name/givenName").asText()).isEqualTo("Dana");
        assertThat(created.at("/emails/0/value").asText()).isEqualTo("dana@example.com");
        assertThat(created.path("active").asBoolean()).isTrue();
        assertThat(created.path("externalId").asText()).isEqualTo("00u1okta");
        assertThat(created.at("/meta/resourceType").asText()).isEqualTo("User");
        assertThat(created.toString()).as("never a password").doesNotContain("never-kept");

        Scim.error(scim.call("POST", "/Users", create.replace("dana@example.com\",\"name", "DANA@example.com\",\"name")), 409, "uniqueness");
        JsonNode found = scim.get("/Users?" + Scim.filter("userName eq \"Dana@Example.com\""));
        assertThat(found.path("totalResults").asInt()).as("userName is not case-exact").isEqualTo(1);
        assertThat(found.at("/Resources/0/id").asText()).isEqualTo(id);
        assertThat(scim.get("/Users?" + Scim.filter("externalId eq \"00u1okta\"")).at("/Resources/0/id").asText()).isEqualTo(id);

        // Okta's profile push is a PUT of the whole user
        JsonNode put = Scim.expect(scim.call("PUT", "/Users/" + id, create.replace("\"Lee\"", "\"Lee-Park\"")), 200);
        assertThat(put.at("/name/familyName").asText()).isEqualTo("Lee-Park");

        // a key the user owns works until the deactivation, is refused by the very next request after it
        AdminApi.CreatedKey key = admin.create("{\"name\":\"dana-laptop\"}");
        AdminApi.CreatedKey adminDisabled = admin.create("{\"name\":\"dana-old\"}");
        admin.patch(adminDisabled.id(), "{\"disabled\":true}");
        Scim.own(h, key.id(), id);
        Scim.own(h, adminDisabled.id(), id);
        assertThat(useKey(key.secret()).statusCode()).isEqualTo(200);

        JsonNode deactivated = scim.patch("/Users/" + id, "[{\"op\":\"replace\",\"value\":{\"active\":false}}]");
        assertThat(deactivated.path("active").asBoolean()).isFalse();
        HttpResponse<String> refused = useKey(key.secret());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
        assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("api_key_disabled");
        assertThat(scim.get("/Users/" + id).path("active").asBoolean()).isFalse();

        // the reactivation enables the key it disabled, not the one an administrator had disabled
        assertThat(scim.patch("/Users/" + id, "[{\"op\":\"replace\",\"value\":{\"active\":true}}]").path("active").asBoolean()).isTrue();
        assertThat(useKey(key.secret()).statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(useKey(adminDisabled.secret()).body()).at("/error/code").asText()).isEqualTo("api_key_disabled");

        assertThat(auditActions(id)).containsExactly("user.reactivate", "user.deactivate", "user.update", "user.create");
        JsonNode entry = admin.get("/api/v1/admin/audit?target_id=" + id).path("data").get(1);
        assertThat(entry.path("actor").asText()).isEqualTo("master");
        assertThat(entry.at("/after/keys").toString()).contains(key.id()).doesNotContain(adminDisabled.id());

        // Okta's deprovisioning may also DELETE; the key is then disabled for good
        HttpResponse<String> deleted = scim.call("DELETE", "/Users/" + id, null);
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(useKey(key.secret()).statusCode()).isEqualTo(401);
        Scim.error(scim.call("GET", "/Users/" + id, null), 404, null);
        assertThat(auditActions(id).getFirst()).isEqualTo("user.delete");
    }

    @Test
    void entraProvisionsWithCapitalisedOpsStringBooleansAndExtensionAttributes() throws Exception {
        assertThat(scim.get("/Users?" + Scim.filter("userName eq \"Test_User_ab6490ee@contoso.com\"")).path("totalResults").asInt()).isZero();
        String create = "{\"schemas\":[\"" + USER + "\",\"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User\"],"
                + "\"externalId\":\"0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef\",\"userName\":\"Test_User_ab6490ee@contoso.com\","
                + "\"active\":true,\"emails\":[{\"primary\":true,\"type\":\"work\",\"value\":\"Test_User_fd0ea19b@contoso.com\"}],"
                + "\"meta\":{\"resourceType\":\"User\"},\"name\":{\"formatted\":\"givenName familyName\",\"familyName\":\"familyName\","
                + "\"givenName\":\"givenName\"},\"roles\":[],"
                + "\"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User\":{\"employeeNumber\":\"42\",\"department\":\"R&D\"}}";
        JsonNode created = scim.post("/Users", create);
        String id = created.path("id").asText();
        assertThat(created.at("/emails/0/value").asText()).isEqualTo("Test_User_fd0ea19b@contoso.com");

        JsonNode updated = scim.patch("/Users/" + id, "[{\"op\":\"Replace\",\"path\":\"emails[type eq \\\"work\\\"].value\","
                + "\"value\":\"updatedEmail@microsoft.com\"},{\"op\":\"Replace\",\"path\":\"name.familyName\",\"value\":\"updatedFamilyName\"},"
                + "{\"op\":\"Add\",\"path\":\"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber\",\"value\":\"43\"},"
                + "{\"op\":\"Replace\",\"path\":\"displayName\",\"value\":\"Updated Name\"}]");
        assertThat(updated.at("/emails/0/value").asText()).isEqualTo("updatedEmail@microsoft.com");
        assertThat(updated.at("/name/familyName").asText()).isEqualTo("updatedFamilyName");
        assertThat(updated.at("/name/givenName").asText()).isEqualTo("givenName");
        assertThat(updated.path("displayName").asText()).isEqualTo("Updated Name");

        AdminApi.CreatedKey key = admin.create("{\"name\":\"entra-user\"}");
        Scim.own(h, key.id(), id);
        assertThat(useKey(key.secret()).statusCode()).isEqualTo(200);
        JsonNode disabled = scim.patch("/Users/" + id, "[{\"op\":\"Replace\",\"path\":\"active\",\"value\":\"False\"}]");
        assertThat(disabled.path("active").asBoolean()).isFalse();
        assertThat(Json.parseOrNull(useKey(key.secret()).body()).at("/error/code").asText()).isEqualTo("api_key_disabled");
        assertThat(scim.patch("/Users/" + id, "[{\"op\":\"Replace\",\"path\":\"active\",\"value\":\"True\"}]").path("active").asBoolean()).isTrue();
        assertThat(useKey(key.secret()).statusCode()).isEqualTo(200);

        // Entra's groups: created empty, members added and removed by value lists
        JsonNode group = scim.post("/Groups", "{\"schemas\":[\"" + GROUP + "\"],\"externalId\":\"8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159\","
                + "\"displayName\":\"team-a-leads\",\"meta\":{\"resourceType\":\"Group\"}}");
        String gid = group.path("id").asText();
        JsonNode looked = scim.get("/Groups?excludedAttributes=members&" + Scim.filter("displayName eq \"team-a-leads\""));
        assertThat(looked.at("/Resources/0/id").asText()).isEqualTo(gid);
        assertThat(looked.at("/Resources/0").has("members")).isFalse();
        scim.patch("/Groups/" + gid, "[{\"op\":\"Add\",\"path\":\"members\",\"value\":[{\"value\":\"" + id + "\"}]}]");
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants").toString()).contains("\"role\":\"team_admin\"", "\"scope\":\"team:team_a\"");
        assertThat(scim.get("/Users/" + id).at("/groups/0/display").asText()).isEqualTo("team-a-leads");
        scim.patch("/Groups/" + gid, "[{\"op\":\"Remove\",\"path\":\"members\",\"value\":[{\"value\":\"" + id + "\"}]}]");
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants")).isEmpty();
        assertThat(scim.get("/Groups/" + gid).path("members")).isEmpty();
    }

    @Test
    void aGroupMapsToARoleWhileTheUserIsInItAndAReloadAppliesNewRules() throws Exception {
        String id = scim.post("/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"ops-lead@example.com\",\"active\":true}").path("id").asText();
        // Okta pushes a group, then its members with a PATCH
        JsonNode group = scim.post("/Groups", "{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"gw-admins\",\"members\":[]}");
        String gid = group.path("id").asText();
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants")).isEmpty();
        scim.patch("/Groups/" + gid, "[{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\"" + id + "\",\"display\":\"ops-lead@example.com\"}]}]");
        JsonNode user = admin.get("/api/v1/admin/users/" + id);
        assertThat(user.path("grants").toString()).isEqualTo("[{\"role\":\"org_admin\",\"scope\":\"org\"}]");
        assertThat(user.path("groups").toString()).isEqualTo("[\"gw-admins\"]");

        // Okta removes a member by filter
        scim.patch("/Groups/" + gid, "[{\"op\":\"remove\",\"path\":\"members[value eq \\\"" + id + "\\\"]\"}]");
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants")).isEmpty();

        // a user created into a group it is already in (PUT of the group with members) gets the role; a rename loses it
        scim.call("PUT", "/Groups/" + gid, "{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"gw-admins\",\"members\":[{\"value\":\"" + id + "\"}]}");
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants").toString()).contains("org_admin");
        JsonNode renamed = scim.patch("/Groups/" + gid, "[{\"op\":\"replace\",\"value\":{\"id\":\"" + gid + "\",\"displayName\":\"gw-operators\"}}]");
        assertThat(renamed.path("displayName").asText()).isEqualTo("gw-operators");
        assertThat(renamed.at("/members/0/value").asText()).isEqualTo(id);
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants")).isEmpty();

        // a reload's rules apply to the next change
        write("gw-operators", "viewer");
        assertThat(admin.call("POST", "/api/v1/admin/reload", null).statusCode()).isEqualTo(200);
        scim.patch("/Groups/" + gid, "[{\"op\":\"replace\",\"path\":\"externalId\",\"value\":\"okta-grp-1\"}]");
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants").toString()).isEqualTo("[{\"role\":\"viewer\",\"scope\":\"org\"}]");

        // deleting the group takes the role away
        assertThat(scim.call("DELETE", "/Groups/" + gid, null).statusCode()).isEqualTo(204);
        assertThat(admin.get("/api/v1/admin/users/" + id).path("grants")).isEmpty();
        Scim.error(scim.call("GET", "/Groups/" + gid, null), 404, null);
        assertThat(auditActions(gid)).containsExactly("group.delete", "group.update", "group.update", "group.update", "group.update",
                "group.update", "group.create");
        write("gw-admins", "org_admin");
        assertThat(admin.call("POST", "/api/v1/admin/reload", null).statusCode()).isEqualTo(200);
    }

    @Test
    void listsPageWithStartIndexAndCount() {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            ids.add(scim.post("/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"page-" + i + "@paging.example\"}").path("id").asText());
        }
        JsonNode all = scim.get("/Users?count=200");
        int total = all.path("totalResults").asInt();
        assertThat(total).isGreaterThanOrEqualTo(5);
        List<String> names = new ArrayList<>();
        all.path("Resources").forEach(r -> names.add(r.path("userName").asText()));
        int first = names.indexOf("page-1@paging.example");
        JsonNode page = scim.get("/Users?startIndex=" + (first + 2) + "&count=2");
        assertThat(page.path("totalResults").asInt()).isEqualTo(total);
        assertThat(page.path("startIndex").asInt()).isEqualTo(first + 2);
        assertThat(page.path("itemsPerPage").asInt()).isEqualTo(2);
        assertThat(page.at("/Resources/0/userName").asText()).isEqualTo("page-2@paging.example");
        assertThat(page.at("/Resources/1/userName").asText()).isEqualTo("page-3@paging.example");
        JsonNode counted = scim.get("/Users?count=0");
        assertThat(counted.path("totalResults").asInt()).isEqualTo(total);
        assertThat(counted.path("Resources")).isEmpty();
        ids.forEach(id -> assertThat(scim.call("DELETE", "/Users/" + id, null).statusCode()).isEqualTo(204));
    }

    @Test
    void everyErrorIsInScimsShape() {
        Scim.error(scim.call("GET", "/Users?" + Scim.filter("name.familyName co \"x\""), null), 400, "invalidFilter");
        Scim.error(scim.call("GET", "/Users?" + Scim.filter("title eq \"x\""), null), 400, "invalidFilter");
        Scim.error(scim.call("GET", "/Groups?" + Scim.filter("userName eq \"x\""), null), 400, "invalidFilter");
        Scim.error(scim.call("GET", "/Users/usr_nothing_here", null), 404, null);
        Scim.error(scim.call("PATCH", "/Users/usr_nothing_here", "{\"schemas\":[\"" + Scim.PATCH_OP + "\"],\"Operations\":"
                + "[{\"op\":\"replace\",\"path\":\"active\",\"value\":false}]}"), 404, null);
        Scim.error(scim.call("DELETE", "/Groups/grp_nothing_here", null), 404, null);
        Scim.error(scim.call("POST", "/Users", "{\"schemas\":[\"" + USER + "\"]}"), 400, "invalidValue");
        Scim.error(scim.call("POST", "/Users", "{not json"), 400, "invalidSyntax");

        String id = scim.post("/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"errors@example.com\"}").path("id").asText();
        Scim.error(scim.call("PATCH", "/Users/" + id, "{\"schemas\":[\"" + Scim.PATCH_OP + "\"],\"Operations\":"
                + "[{\"op\":\"move\",\"path\":\"active\",\"value\":false}]}"), 400, "invalidSyntax");
        Scim.error(scim.call("PATCH", "/Users/" + id, "{\"schemas\":[\"" + Scim.PATCH_OP + "\"]}"), 400, "invalidSyntax");
        Scim.error(scim.call("PATCH", "/Users/" + id, "{\"schemas\":[\"" + Scim.PATCH_OP + "\"],\"Operations\":[{\"op\":\"remove\"}]}"), 400, "noTarget");
        Scim.error(scim.call("PATCH", "/Users/" + id, "{\"schemas\":[\"" + Scim.PATCH_OP + "\"],\"Operations\":"
                + "[{\"op\":\"replace\",\"path\":\"active\",\"value\":\"maybe\"}]}"), 400, "invalidValue");
        Scim.error(scim.call("PATCH", "/Users/" + id, "{\"schemas\":[\"" + Scim.PATCH_OP + "\"],\"Operations\":"
                + "[{\"op\":\"replace\",\"path\":\"id\",\"value\":\"usr_mine\"}]}"), 400, "mutability");
        Scim.error(scim.call("PATCH", "/Users/" + id, "{\"schemas\":[\"" + Scim.PATCH_OP + "\"],\"Operations\":"
                + "[{\"op\":\"replace\",\"path\":\"emails[type eq work\",\"value\":\"x\"}]}"), 400, "invalidPath");
        Scim.error(scim.call("POST", "/Groups", "{\"schemas\":[\"" + GROUP + "\"],\"displayName\":\"with-ghost\",\"members\":"
                + "[{\"value\":\"usr_ghost\"}]}"), 400, "invalidValue");
        assertThat(scim.call("DELETE", "/Users/" + id, null).statusCode()).isEqualTo(204);

        // the authentication's and the authorization's refusals too
        Scim.error(new Scim(h, null).call("GET", "/Users", null), 401, null);
        Scim.error(new Scim(h, "pk-unknown-key").call("GET", "/Users", null), 401, null);
        AdminApi.CreatedKey platformKey = admin.create("{\"name\":\"not-a-provisioner\"}");
        JsonNode denied = Scim.error(new Scim(h, platformKey.secret()).call("GET", "/Users", null), 403, null);
        assertThat(denied.path("detail").asText()).contains("scim");
    }

    @Test
    void discoveryDocumentsDescribeWhatIsSupported() {
        JsonNode config = scim.get("/ServiceProviderConfig");
        assertThat(config.at("/patch/supported").asBoolean()).isTrue();
        assertThat(config.at("/filter/supported").asBoolean()).isTrue();
        assertThat(config.at("/bulk/supported").asBoolean()).isFalse();
        assertThat(config.at("/authenticationSchemes/0/type").asText()).isEqualTo("oauthbearertoken");
        JsonNode types = scim.get("/ResourceTypes");
        assertThat(types.path("totalResults").asInt()).isEqualTo(2);
        assertThat(types.findValuesAsText("endpoint")).containsExactly("/Users", "/Groups");
        JsonNode schemas = scim.get("/Schemas");
        assertThat(schemas.findValuesAsText("id")).contains(USER, GROUP);
    }

    @Test
    void theUsersAdminApiListsAndSuspendsPeople() throws Exception {
        String id = scim.post("/Users", "{\"schemas\":[\"" + USER + "\"],\"userName\":\"suspend-me@example.com\"}").path("id").asText();
        AdminApi.CreatedKey key = admin.create("{\"name\":\"suspend-me\"}");
        Scim.own(h, key.id(), id);
        assertThat(admin.get("/api/v1/admin/users").path("data").findValuesAsText("user_name")).contains("suspend-me@example.com");

        HttpResponse<String> suspended = admin.call("PATCH", "/api/v1/admin/users/" + id, "{\"active\":false}");
        assertThat(suspended.statusCode()).as(suspended.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(suspended.body()).path("active").asBoolean()).isFalse();
        assertThat(Json.parseOrNull(useKey(key.secret()).body()).at("/error/code").asText()).isEqualTo("api_key_disabled");
        assertThat(scim.get("/Users/" + id).path("active").asBoolean()).isFalse();
        assertThat(admin.call("PATCH", "/api/v1/admin/users/" + id, "{\"active\":true}").statusCode()).isEqualTo(200);
        assertThat(useKey(key.secret()).statusCode()).isEqualTo(200);

        HttpResponse<String> bad = admin.call("PATCH", "/api/v1/admin/users/" + id, "{\"user_name\":\"x\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(bad.body()).at("/error/param").asText()).isEqualTo("user_name");
        HttpResponse<String> missing = admin.call("GET", "/api/v1/admin/users/usr_nothing_here", null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(Json.parseOrNull(missing.body()).at("/error/code").asText()).isEqualTo("user_not_found");
        assertThat(auditActions(id)).startsWith("user.reactivate", "user.deactivate");
    }
}
