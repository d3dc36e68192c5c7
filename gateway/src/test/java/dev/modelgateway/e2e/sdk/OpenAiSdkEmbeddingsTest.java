package dev.modelgateway.e2e.sdk;

import com.openai.client.OpenAIClient;
import com.openai.errors.BadRequestException;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Embeddings through openai-java for vendor B (native), vendor C (batchEmbedContents) and vendor D (compatible mode). */
@ExtendWith(PerClassGateway.class)
@E2e
class OpenAiSdkEmbeddingsTest {
    static GatewayHarness h;
    static OpenAIClient client;

    static CreateEmbeddingResponse embed(String model, EmbeddingCreateParams.EncodingFormat format) {
        return client.embeddings().create(EmbeddingCreateParams.builder().model(model)
                .inputOfArrayOfStrings(List.of("first text", "second text")).dimensions(8).encodingFormat(format).build());
    }

    @Test
    void everyVendorBatchInFloatAndBase64() {
        for (String model : List.of("platform/text-embedding-3-small", "vendorC-embedding-001", "vendorD-text-embedding-v4")) {
            CreateEmbeddingResponse floats = embed(model, EmbeddingCreateParams.EncodingFormat.FLOAT);
            assertThat(floats.data()).as(model).hasSize(2);
            assertThat(floats.data().get(1).index()).isEqualTo(1);
            assertThat(floats.data().get(0).embedding()).as(model).hasSize(8);
            assertThat(floats.model()).isEqualTo(model);
            assertThat(floats.usage().promptTokens()).as(model).isPositive();
            // The SDK decodes base64 into the same floats.
            CreateEmbeddingResponse packed = embed(model, EmbeddingCreateParams.EncodingFormat.BASE64);
            assertThat(packed.data().get(0).embedding()).as(model).isEqualTo(floats.data().get(0).embedding());
            assertThat(h.ledger(model, 2)).as(model).hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(row -> assertThat(((Number) row.get("input_tokens")).longValue()).isPositive());
        }
        var raw = h.postAuthed("/api/v1/embeddings", "{\"model\":\"vendorC-embedding-001\",\"input\":\"x\",\"encoding_format\":\"base64\"}");
        assertThat(Json.parseOrNull(raw.body()).at("/data/0/embedding").isTextual()).isTrue();
        assertThat(Json.parseOrNull(h.sim.received().getLast().body()).at("/requests/0/model").asText())
                .isEqualTo("models/vendorC-embedding-001");
    }

    @Test
    void badInputNamesTheField() {
        assertThatThrownBy(() -> client.embeddings().create(EmbeddingCreateParams.builder()
                .model("platform/vendorB-5.5").input("x").build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("not an embedding model");
        for (String[] c : new String[][]{
                {"{\"model\":\"platform/text-embedding-3-small\"}", "input"},
                {"{\"model\":\"platform/text-embedding-3-small\",\"input\":[\"a\",\"\"]}", "input[1]"},
                {"{\"model\":\"platform/text-embedding-3-small\",\"input\":\"a\",\"encoding_format\":\"hex\"}", "encoding_format"},
                {"{\"model\":\"vendorC-embedding-001\",\"input\":[1,2,3]}", "input"}}) {
            var r = h.postAuthed("/api/v1/embeddings", c[0]);
            assertThat(r.statusCode()).as(c[0]).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).as(c[0]).isEqualTo(c[1]);
        }
    }
}
