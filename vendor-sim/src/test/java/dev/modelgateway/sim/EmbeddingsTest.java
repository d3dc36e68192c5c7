package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** Embeddings endpoints. */
class EmbeddingsTest extends OpenAiMediaTest {

    @Test
    void embeddingsFloatAndBase64() {
        JsonNode f = json(post("/openai/v1/embeddings", "{\"model\":\"text-embedding-3-small\",\"input\":[\"a\",\"bb\"]}", "authorization", AUTH).body());
        assertThat(f.path("object").asText()).isEqualTo("list");
        assertThat(f.path("data")).hasSize(2);
        assertThat(f.path("data").get(1).path("index").asInt()).isEqualTo(1);
        assertThat(f.path("data").get(0).path("embedding")).hasSize(1536);
        assertThat(f.path("usage").path("prompt_tokens").asInt()).isEqualTo(2);

        JsonNode b = json(post("/openai/v1/embeddings", "{\"model\":\"text-embedding-3-small\",\"input\":\"a\",\"dimensions\":8,\"encoding_format\":\"base64\"}",
                "authorization", AUTH).body());
        byte[] raw = Base64.getDecoder().decode(b.path("data").get(0).path("embedding").asText());
        assertThat(raw).hasSize(32);
        float first = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getFloat();
        JsonNode again = json(post("/openai/v1/embeddings", "{\"model\":\"text-embedding-3-small\",\"input\":\"a\",\"dimensions\":8}", "authorization", AUTH).body());
        assertThat(again.path("data").get(0).path("embedding").get(0).floatValue()).isEqualTo(first);
    }

    @Test
    void geminiEmbeddings() {
        JsonNode one = json(gemini("gemini-embedding-001", "embedContent", "{\"content\":{\"parts\":[{\"text\":\"hi\"}]},\"outputDimensionality\":16}").body());
        assertThat(one.path("embedding").path("values")).hasSize(16);
        JsonNode batch = json(gemini("gemini-embedding-001", "batchEmbedContents", "{\"requests\":[{\"model\":\"models/gemini-embedding-001\",\"content\":"
                + "{\"parts\":[{\"text\":\"hi\"}]},\"outputDimensionality\":16},{\"model\":\"models/gemini-embedding-001\",\"content\":{\"parts\":[{\"text\":\"yo\"}]}}]}").body());
        assertThat(batch.path("embeddings")).hasSize(2);
        assertThat(batch.path("embeddings").get(0).path("values")).isEqualTo(one.path("embedding").path("values"));
        assertThat(batch.path("embeddings").get(1).path("values")).hasSize(3072);
    }
}
