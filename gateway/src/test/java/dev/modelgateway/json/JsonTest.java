package dev.modelgateway.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading vendor answers from their bytes: only the fields asked for are built, and nothing reads differently. */
class JsonTest {
    private static final String ANSWER = """
            {"id":"chatcmpl-1","choices":[{"index":0,"message":{"content":"héllo 🌍","usage":{"fake":1}}}],
             "usage":{"prompt_tokens":11,"completion_tokens":3},"system_fingerprint":null}""";

    @Test
    void onlyTheTopLevelFieldsAskedForAreKept() {
        ObjectNode kept = Json.parseFields(Buffer.buffer(ANSWER), Set.of("usage", "id"));
        JsonNode whole = Json.parseOrNull(ANSWER);
        assertThat(kept).isEqualTo(Json.MAPPER.createObjectNode().setAll(whole.<ObjectNode>deepCopy().retain("id", "usage")));
    }

    @Test
    void anythingButAnObjectHasNoFieldsAndBrokenJsonIsNull() {
        for (String notAnObject : new String[]{"", "[1,{\"usage\":2}]", "\"usage\"", "42", "{}"}) {
            assertThat(Json.parseFields(Buffer.buffer(notAnObject), Set.of("usage"))).as(notAnObject).isEmpty();
        }
        for (String broken : new String[]{"{\"usage\":", "{\"usage\":{}", "{usage:1}", "<html>"}) {
            assertThat(Json.parseFields(Buffer.buffer(broken), Set.of("usage"))).as(broken).isNull();
        }
    }

    @Test
    void bytesThatAreNotUtf8ReadAsTheirStringWould() {
        byte[] bytes = "{\"text\":\"ab\",\"usage\":{\"output_tokens\":5}}".getBytes(StandardCharsets.UTF_8);
        bytes[10] = (byte) 0xC3; // 'b' becomes a lone lead byte
        String decoded = new String(bytes, StandardCharsets.UTF_8);
        assertThat(Json.parseOrNull(bytes, 0, bytes.length)).isEqualTo(Json.parseOrNull(decoded));
        assertThat(Json.parseFields(Buffer.buffer(bytes), Set.of("usage")).path("usage").path("output_tokens").asInt()).isEqualTo(5);
    }

    @Test
    void aBufferIsReadWhereItsBytesStart() {
        byte[] padded = ("xxxx" + ANSWER + "yyyy").getBytes(StandardCharsets.UTF_8);
        int length = ANSWER.getBytes(StandardCharsets.UTF_8).length;
        Buffer slice = BufferInternal.buffer(Unpooled.wrappedBuffer(padded).slice(4, length));
        assertThat(Json.parseOrNull(slice)).isEqualTo(Json.parseOrNull(ANSWER));
        assertThat(Json.parseFields(slice, Set.of("usage")).get("usage")).isEqualTo(Json.parseOrNull(ANSWER).get("usage"));
    }

    @Test
    void stringsAreWrittenAsTheGeneratorWritesThem() {
        StringBuilder every = new StringBuilder();
        for (char c = 0; c < 0xFFFF; c++) if (!Character.isSurrogate(c)) every.append(c);
        for (String text : List.of(every.toString(), "🌍 \"q\" \\ \n \u0001 \u001f \u007f", "", "half \ud83d", "\ude00 end")) {
            Buffer fast = Buffer.buffer();
            Json.appendString(text, fast);
            Buffer generated = Buffer.buffer();
            Json.append(TextNode.valueOf(text), generated);
            assertThat(fast).as(text.length() > 40 ? "every BMP character" : text).isEqualTo(generated);
        }
        Buffer out = Buffer.buffer();
        Json.appendString("🌍 \"q\"", out);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("\"🌍 \\\"q\\\"\"");
    }
}
