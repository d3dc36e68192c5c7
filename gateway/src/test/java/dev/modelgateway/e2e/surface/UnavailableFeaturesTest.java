package dev.modelgateway.e2e.surface;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.OpenAIServiceException;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** docs/contract.md §1.5: Files, Batches, Assistants/Threads and fine-tuning answer 501 with advice, without SDK retries. */
@ExtendWith(PerClassGateway.class)
@E2e
class UnavailableFeaturesTest {
    static GatewayHarness h;

    @Test
    void sdkCallsGetA501WithAdviceAndAreNotRetried() {
        OpenAIClient client = h.openai(GatewayHarness.KEY, 2);
        OpenAIServiceException e = catchThrowableOfType(OpenAIServiceException.class, () -> client.files().list());
        assertThat(e.statusCode()).isEqualTo(501);
        assertThat(e.getMessage()).contains("Files API").contains("inline");
        e = catchThrowableOfType(OpenAIServiceException.class, () -> client.batches().list());
        assertThat(e.getMessage()).contains("Batch API");
        e = catchThrowableOfType(OpenAIServiceException.class, () -> client.fineTuning().jobs().list());
        assertThat(e.getMessage()).contains("Fine-tuning");
        e = catchThrowableOfType(OpenAIServiceException.class, () -> client.beta().assistants().list());
        assertThat(e.getMessage()).contains("chat completions");
    }

    @Test
    void rawShapeAndHeaders() {
        for (String path : new String[]{"/api/v1/files", "/api/v1/files/file-1/content", "/api/v1/threads/t1/messages",
                "/api/v1/fine_tuning/jobs", "/api/v1/vector_stores"}) {
            var r = h.getAuthed(path);
            assertThat(r.statusCode()).as(path).isEqualTo(501);
            assertThat(r.headers().firstValue("x-should-retry")).hasValue("false");
            JsonNode err = Json.parseOrNull(r.body()).path("error");
            assertThat(err.path("code").asText()).isEqualTo("feature_unavailable");
            assertThat(err.path("type").asText()).isEqualTo("not_implemented_error");
        }
        assertThat(h.get("/api/v1/files").statusCode()).isEqualTo(401);
    }
}
