package dev.modelgateway.endpoint.unavailable;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * docs/contract.md §1.5: vendor B features this platform does not offer answer 501 in the OpenAI error shape, with
 * {@code x-should-retry: false} so that the SDKs do not retry, saying what to use instead.
 */
public final class UnavailableFeatures {
    private record Feature(String name, String[] paths, String advice) { }

    private static final Feature[] FEATURES = {
            new Feature("The Files API", new String[]{"/files", "/uploads", "/vector_stores"},
                    "is planned but not available yet. Send images, audio and documents inline (data URLs or base64) in "
                            + "chat completions, messages or Responses requests."),
            new Feature("The Batch API", new String[]{"/batches"},
                    "is not publicly available. Send the requests individually; platform_options.max_retries and fallbacks "
                            + "handle transient failures."),
            new Feature("Assistants and Threads", new String[]{"/assistants", "/threads"},
                    "are unavailable (an assistant feature is planned). Use chat completions and keep the conversation state "
                            + "in your client, or the Responses API with previous_response_id."),
            new Feature("Fine-tuning", new String[]{"/fine_tuning"},
                    "is unavailable. Use the catalogue's models (GET /api/v1/models) with instructions or few-shot examples."),
    };

    private UnavailableFeatures() {
    }

    /** Each refused path (every method, and everything below it) with its refusal, for {@code server/GatewayRouter}. */
    public static Map<String, Handler<RoutingContext>> routes() {
        Map<String, Handler<RoutingContext>> routes = new LinkedHashMap<>();
        for (Feature f : FEATURES) {
            for (String path : f.paths) {
                routes.put("/api/v1" + path, ctx -> Exchange.fail(ctx, refusal(f)));
                routes.put("/api/v1" + path + "/*", ctx -> Exchange.fail(ctx, refusal(f)));
            }
        }
        return routes;
    }

    private static GatewayException refusal(Feature f) {
        return GatewayException.of(ErrorKind.NOT_IMPLEMENTED, f.name + " " + f.advice)
                .withCode("feature_unavailable").withHeaders(Map.of("x-should-retry", "false"));
    }
}
