package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.keys.Group;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** PATCH operations on a user and a group, in the forms Okta, Entra and RFC 7644 §3.5.2 use. */
class ScimPatchTest {
    static final Person DANA = new Person(new User("usr_1", "dana@example.com", "dana@example.com", "Dana Lee", "00u1", true, List.of(),
            Instant.EPOCH, Instant.EPOCH), "Dana", "Lee", List.of());

    static Person patched(String operations) {
        ObjectNode resource = ScimUserDoc.render(DANA, "https://gw/api/v1/scim/v2");
        ScimUserDoc.patch(resource, ScimPatchOp.parse(Json.parseObject(Buffer.buffer("{\"Operations\":" + operations + "}"))));
        return ScimUserDoc.parse(resource, DANA);
    }

    static String scimType(Runnable r) {
        return catchThrowableOfType(GatewayException.class, r::run).code();
    }

    @Test
    void pathLessValuesMayNameSubAttributesWithDots() {
        Person p = patched("[{\"op\":\"replace\",\"value\":{\"name.givenName\":\"Dee\",\"displayName\":\"Dee Lee\",\"id\":\"usr_x\"}}]");
        assertThat(p.givenName()).isEqualTo("Dee");
        assertThat(p.familyName()).isEqualTo("Lee");
        assertThat(p.user().displayName()).isEqualTo("Dee Lee");
        assertThat(p.user().id()).as("read-only in a value: ignored").isEqualTo("usr_1");
    }

    @Test
    void theCoreSchemaUrnMayPrefixAPathAndExtensionsAreIgnored() {
        Person p = patched("[{\"op\":\"replace\",\"path\":\"urn:ietf:params:scim:schemas:core:2.0:User:userName\",\"value\":\"dee@example.com\"},"
                + "{\"op\":\"add\",\"path\":\"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager\",\"value\":{\"value\":\"x\"}}]");
        assertThat(p.user().userName()).isEqualTo("dee@example.com");
    }

    @Test
    void emailsByFilterAddRemoveAndTheWorkAddressIsKept() {
        assertThat(patched("[{\"op\":\"add\",\"path\":\"emails\",\"value\":[{\"value\":\"home@example.com\",\"type\":\"home\"}]}]").user().email())
                .as("the work address is still the one kept").isEqualTo("dana@example.com");
        assertThat(patched("[{\"op\":\"remove\",\"path\":\"emails[type eq \\\"work\\\"]\"}]").user().email()).isNull();
        assertThat(patched("[{\"op\":\"remove\",\"path\":\"emails[type eq \\\"work\\\"]\"},"
                + "{\"op\":\"add\",\"path\":\"emails[type eq \\\"work\\\"].value\",\"value\":\"new@example.com\"}]").user().email())
                .isEqualTo("new@example.com");
    }

    @Test
    void removeClearsAnAttributeAndActiveTakesTextBooleans() {
        Person p = patched("[{\"op\":\"remove\",\"path\":\"displayName\"},{\"op\":\"remove\",\"path\":\"externalId\"},"
                + "{\"op\":\"Replace\",\"path\":\"active\",\"value\":\"FALSE\"}]");
        assertThat(p.user().displayName()).isNull();
        assertThat(p.user().externalId()).isNull();
        assertThat(p.user().active()).isFalse();
    }

    @Test
    void refusals() {
        assertThat(scimType(() -> patched("[{\"op\":\"remove\",\"path\":\"userName\"}]"))).isEqualTo("invalidValue");
        assertThat(scimType(() -> patched("[{\"op\":\"replace\",\"path\":\"groups\",\"value\":[]}]"))).isEqualTo("mutability");
        assertThat(scimType(() -> patched("[{\"op\":\"replace\",\"path\":\"active.value\",\"value\":true}]"))).isEqualTo("invalidPath");
        assertThat(scimType(() -> patched("[{\"op\":\"replace\",\"value\":true}]"))).isEqualTo("invalidSyntax");
        assertThat(scimType(() -> patched("[]"))).isEqualTo("invalidSyntax");
    }

    @Test
    void groupMembersAddRemoveReplaceAndRename() {
        Group g = new Group("grp_1", "gw-admins", null, List.of("usr_1", "usr_2"), Instant.EPOCH, Instant.EPOCH);
        assertThat(group(g, "[{\"op\":\"add\",\"path\":\"members\",\"value\":[{\"value\":\"usr_3\"},{\"value\":\"usr_1\"}]}]").members())
                .containsExactly("usr_1", "usr_2", "usr_3");
        assertThat(group(g, "[{\"op\":\"remove\",\"path\":\"members[value eq \\\"usr_1\\\"]\"}]").members()).containsExactly("usr_2");
        assertThat(group(g, "[{\"op\":\"Remove\",\"path\":\"members\",\"value\":[{\"value\":\"usr_2\"}]}]").members()).containsExactly("usr_1");
        assertThat(group(g, "[{\"op\":\"remove\",\"path\":\"members\"}]").members()).isEmpty();
        assertThat(group(g, "[{\"op\":\"replace\",\"path\":\"members\",\"value\":[{\"value\":\"usr_9\"}]}]").members()).containsExactly("usr_9");
        Group renamed = group(g, "[{\"op\":\"replace\",\"value\":{\"id\":\"grp_1\",\"displayName\":\"ops\"}}]");
        assertThat(renamed.displayName()).isEqualTo("ops");
        assertThat(renamed.members()).containsExactly("usr_1", "usr_2");
        assertThat(scimType(() -> group(g, "[{\"op\":\"add\",\"path\":\"members[value eq \\\"usr_1\\\"]\",\"value\":{}}]"))).isEqualTo("invalidPath");
    }

    static Group group(Group g, String operations) {
        return ScimGroupDoc.patch(g, ScimPatchOp.parse(Json.parseObject(Buffer.buffer("{\"Operations\":" + operations + "}"))));
    }

    @Test
    void filters() {
        assertThat(ScimFilter.parse("userName EQ \"a\\\"b\"", ScimUserDoc.FILTERS)).isEqualTo(new ScimFilter("userName", "a\"b"));
        assertThat(ScimFilter.parse("EXTERNALID eq \"x\"", ScimUserDoc.FILTERS).attribute()).isEqualTo("externalId");
        assertThat(ScimFilter.parse(null, ScimUserDoc.FILTERS)).isNull();
        assertThat(scimType(() -> ScimFilter.parse("userName eq \"a\" and active eq true", ScimUserDoc.FILTERS))).isEqualTo("invalidFilter");
        assertThat(scimType(() -> ScimFilter.parse("userName sw \"a\"", ScimUserDoc.FILTERS))).isEqualTo("invalidFilter");
    }
}
