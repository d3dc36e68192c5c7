package dev.modelgateway.e2e.observability;

import dev.modelgateway.canary.Canaries;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.observability.Redaction;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plants canary secrets where a gateway could leak them: a vendor whose error messages quote the key it was given
 * (relayed natively, summarised after retries, translated), a caller's unknown platform key, a {@code ?key=} query
 * parameter, a library logging a credential. No error body shows one; {@code CanaryLogCheck} checks every log line
 * of this class (and of the whole suite) the same way.
 */
@E2e
class CanarySecretsTest {
    static Vertx vertx;
    static HttpServer vendor;
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        // vendor B as a careless vendor: every answer an error that quotes the credential it was sent
        vendor = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
            String key = String.valueOf(req.getHeader("authorization"));
            int status = body.toString().contains("fail500") ? 500 : 400;
            String message = "Incorrect API key provided: " + key + " (also tried " + Canaries.ECHOED
                    + "); see https://vendor.example/keys?key=" + Canaries.QUERY_KEY;
            req.response().setStatusCode(status).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("error", new JsonObject().put("message", message)
                            .put("type", "invalid_request_error").put("code", "invalid_api_key")).encode());
        })).listen(0, "127.0.0.1").await();
        h = GatewayHarness.builder().baseUrl(Vendor.OPENAI, "http://127.0.0.1:" + vendor.actualPort() + "/v1").start();
    }

    @AfterAll
    static void stop() {
        if (h != null) h.close();
        if (vendor != null) vendor.close().await();
        if (vertx != null) vertx.close().await();
    }

    static void noCanary(HttpResponse<String> r) {
        for (String canary : List.of(GatewayHarness.KEY, "sim-openai-key", Canaries.PLATFORM_KEY, Canaries.QUERY_KEY, Canaries.ECHOED)) {
            assertThat(r.body()).as("status %d", r.statusCode()).doesNotContain(canary);
        }
    }

    @Test
    void aVendorErrorQuotingTheKeyIsRedactedOnEveryPath() {
        // native: the vendor's body goes back as it came, but through the redaction layer
        HttpResponse<String> nativeAnswer = h.postAuthed("/api/v1/chat/completions",
                "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(nativeAnswer.statusCode()).isEqualTo(400);
        assertThat(nativeAnswer.body()).contains("Incorrect API key provided: Bearer " + Redaction.MASK);
        noCanary(nativeAnswer);

        // translated (messages protocol to vendor B), and summarised after a retry of a 500
        HttpResponse<String> translated = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorB-5.5\",\"max_tokens\":20,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(translated.statusCode()).isEqualTo(400);
        noCanary(translated);
        HttpResponse<String> summary = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                + "\"platform_options\":{\"max_retries\":1},\"messages\":[{\"role\":\"user\",\"content\":\"fail500\"}]}");
        assertThat(summary.statusCode()).isEqualTo(502);
        assertThat(summary.body()).contains("after 2 attempts");
        noCanary(summary);
    }

    @Test
    void aCallersCredentialsNeverComeBack() {
        HttpResponse<String> unknownKey = h.post("/api/v1/chat/completions", "{}", "authorization", "Bearer " + Canaries.PLATFORM_KEY);
        assertThat(unknownKey.statusCode()).isEqualTo(401);
        noCanary(unknownKey);
        HttpResponse<String> queryKey = h.getAuthed("/api/v1/nothing-here?key=" + Canaries.QUERY_KEY);
        assertThat(queryKey.statusCode()).isEqualTo(404);
        noCanary(queryKey);
        HttpResponse<String> modelsWithKey = h.getAuthed("/api/v1/models?key=" + Canaries.QUERY_KEY);
        assertThat(modelsWithKey.statusCode()).isEqualTo(200);
    }

    @Test
    void aLibraryLoggingACredentialIsRedacted() {
        // as a careless library would: CanaryLogCheck fails this class if the console's encoder let it through
        Logger careless = LoggerFactory.getLogger("some.library.HttpClient");
        careless.warn("request failed: Authorization: Bearer {} x-goog-api-key={} url=https://host/v1?key={} vendor key {}",
                Canaries.PLATFORM_KEY, "sim-gemini-key", Canaries.QUERY_KEY, "sim-openai-key");
        careless.error("with a stack trace", new IllegalStateException("token " + Canaries.ECHOED + " rejected"));
    }
}
