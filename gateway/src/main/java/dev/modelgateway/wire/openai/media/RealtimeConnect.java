package dev.modelgateway.wire.openai.media;

import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.UrlText;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The vendor leg of a realtime session: vendor B's WebSocket {@code /realtime?model=<upstream id>}, with the
 * caller's other query parameters kept (e.g. {@code intent=transcription}). The beta protocol is asked for with a
 * header upstream, whether the caller used the header or the subprotocol. Its frames' usage is
 * {@link RealtimeUsage}'s.
 *
 * @param params    the caller's query parameters but {@code model}, in order
 * @param beta      the caller's {@code openai-beta} header, or null
 * @param protocols the caller's {@code sec-websocket-protocol} header, or null
 */
public record RealtimeConnect(List<Map.Entry<String, String>> params, String beta, String protocols) {
    private static final String BETA_SUBPROTOCOL = "openai-beta.realtime-v1";

    public OperationRequest request(String upstreamModel) {
        StringBuilder q = new StringBuilder("/realtime?model=").append(UrlText.encode(upstreamModel));
        for (Map.Entry<String, String> p : params) q.append('&').append(UrlText.encode(p.getKey())).append('=').append(UrlText.encode(p.getValue()));
        Map<String, String> headers = new HashMap<>();
        if (beta != null) headers.put("openai-beta", beta);
        else if (protocols != null && protocols.toLowerCase(Locale.ROOT).contains(BETA_SUBPROTOCOL)) headers.put("openai-beta", "realtime=v1");
        return new OperationRequest("GET", q.toString(), headers, null);
    }
}
