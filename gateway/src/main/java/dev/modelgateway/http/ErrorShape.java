package dev.modelgateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.anthropic.MessagesErrors;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.openai.chat.ChatErrors;

import java.util.Set;

/**
 * The wire protocol a caller speaks on a route; it decides the shape of every error the caller sees.
 * Messages routes answer in vendor A's shape, the accounts and admin API in its documented one
 * (docs/accounts.md, "HTTP API"), SCIM in RFC 7644 §3.12's, everything else in vendor B's. The bodies come from the inbound codecs' own
 * renderers, so an error looks the same before and inside a stream.
 */
public enum ErrorShape {
    /** {@code {"error":{"message","type","param","code"}}} */
    OPENAI {
        @Override
        public ObjectNode errorBody(GatewayException e, String traceId) {
            return ChatErrors.body(e);
        }
    },
    /**
     * {@code {"error":{"message","type","param","code"}}} as {@link #OPENAI}, but a 401 is an
     * {@code authentication_error} and a 404 a {@code not_found_error}, as the accounts API has always answered.
     */
    ADMIN {
        @Override
        public ObjectNode errorBody(GatewayException e, String traceId) {
            ObjectNode body = ChatErrors.body(e);
            switch (e.kind()) {
                case AUTHENTICATION -> ((ObjectNode) body.get("error")).put("type", "authentication_error");
                case NOT_FOUND -> ((ObjectNode) body.get("error")).put("type", "not_found_error");
                default -> { }
            }
            return body;
        }
    },
    /** {@code {"type":"error","error":{"type","message"},"request_id"}} */
    ANTHROPIC {
        @Override
        public ObjectNode errorBody(GatewayException e, String traceId) {
            return MessagesErrors.body(e).put("request_id", traceId);
        }
    },

    /**
     * RFC 7644 §3.12: {@code {"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"400","scimType","detail"}},
     * the status a string; {@code scimType} is the error's code when it is one of the RFC's, absent otherwise (a 401,
     * a 403, a 404 need none).
     */
    SCIM {
        @Override
        public ObjectNode errorBody(GatewayException e, String traceId) {
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.putArray("schemas").add(SCIM_ERROR);
            body.put("status", String.valueOf(e.status()));
            if (e.code() != null && SCIM_TYPES.contains(e.code())) body.put("scimType", e.code());
            body.put("detail", e.getMessage());
            return body;
        }

        @Override
        public String contentType() {
            return SCIM_MEDIA_TYPE;
        }
    };

    /** RFC 7644 §3.1's media type, of every SCIM answer. */
    public static final String SCIM_MEDIA_TYPE = "application/scim+json";
    private static final String SCIM_ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
    /** RFC 7644 §3.12, table 9. */
    private static final Set<String> SCIM_TYPES = Set.of("invalidFilter", "tooMany", "uniqueness", "mutability", "invalidSyntax",
            "invalidPath", "noTarget", "invalidValue", "invalidVers", "sensitive");

    public abstract ObjectNode errorBody(GatewayException e, String traceId);

    /** The media type of an error's body. */
    public String contentType() {
        return "application/json";
    }
}
