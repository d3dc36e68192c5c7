package dev.modelgateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.anthropic.MessagesErrors;
import dev.modelgateway.wire.openai.chat.ChatErrors;

/**
 * The wire protocol a caller speaks on a route; it decides the shape of every error the caller sees.
 * Messages routes answer in vendor A's shape, the accounts and admin API in its documented one
 * (docs/accounts.md, "HTTP API"), everything else in vendor B's. The bodies come from the inbound codecs' own
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
    };

    public abstract ObjectNode errorBody(GatewayException e, String traceId);
}
