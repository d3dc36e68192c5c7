package dev.modelgateway.wire.bedrock;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventStreamSseTest {
    private static final String START = "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"content\":[],\"usage\":{\"input_tokens\":12,\"cache_read_input_tokens\":3,\"output_tokens\":1}}}";
    private static final String DELTA = "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"h\\u00e9 \\\"type\\\": x\"}}";

    @Test
    void invokeChunksBecomeVendorASseWithTheDecodedBytesVerbatim() {
        byte[] stream = concat(chunk(START), chunk(DELTA));
        EventStreamSse sse = EventStreamSse.invoke(1 << 20, "us-east-1");
        Buffer out = Buffer.buffer();
        // one byte per read: every frame arrives split
        for (int i = 0; i < stream.length; i++) out.appendBuffer(sse.convert(Buffer.buffer(new byte[]{stream[i]})));
        sse.end();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
                "event: message_start\ndata: " + START + "\n\nevent: content_block_delta\ndata: " + DELTA + "\n\n");
        List<SseEvent> events = parse(out);
        assertThat(events).extracting(SseEvent::event).containsExactly("message_start", "content_block_delta");
    }

    @Test
    void aChunkWhoseTypeIsNotFirstIsNamedByItsTopLevelType() {
        String json = "{\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"},\"type\":\"content_block_delta\"}";
        Buffer out = EventStreamSse.invoke(1 << 20, null).convert(Buffer.buffer(concat(chunk(json))));
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("event: content_block_delta\ndata: " + json);
    }

    @Test
    void aChunkWithAnEscapedBase64ValueIsStillRead() {
        String b64 = Base64.getEncoder().encodeToString("{\"type\":\"ping\"}".getBytes(StandardCharsets.UTF_8)).replace("/", "\\/");
        Message m = event("chunk", "{\"p\":\"abc\",\"bytes\":\"" + b64 + "\"}");
        assertThat(EventStreamSse.invoke(1 << 20, null).convert(Buffer.buffer(concat(m))).toString(StandardCharsets.UTF_8))
                .isEqualTo("event: ping\ndata: {\"type\":\"ping\"}\n\n");
    }

    @Test
    void converseEventsAreNamedByTheirEventType() {
        String payload = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"},\"p\":\"abcdef\"}";
        Buffer out = EventStreamSse.converse(1 << 20, null).convert(Buffer.buffer(concat(event("contentBlockDelta", payload))));
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("event: contentBlockDelta\ndata: " + payload + "\n\n");
    }

    @Test
    void anExceptionFrameAfterChunksThrowsItsMappedKind() {
        EventStreamSse sse = EventStreamSse.invoke(1 << 20, null);
        assertThat(sse.convert(Buffer.buffer(concat(chunk(START)))).length()).isPositive();
        Buffer cut = Buffer.buffer(concat(exception("throttlingException", "{\"message\":\"Too many requests, please wait before trying again.\"}")));
        assertThatThrownBy(() -> sse.convert(cut)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(429);
            assertThat(e.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
            assertThat(e.code()).isEqualTo("ThrottlingException");
            assertThat(e.getMessage()).isEqualTo("Too many requests, please wait before trying again.");
        });
    }

    @Test
    void chunksBeforeAnExceptionFrameInTheSameReadAreReturnedAndTheFailureIsPending() {
        EventStreamSse sse = EventStreamSse.invoke(1 << 20, null);
        Buffer read = Buffer.buffer(concat(chunk(START), chunk(DELTA),
                exception("modelStreamErrorException", "{\"message\":\"the model failed\"}")));
        Buffer out = sse.convert(read);
        assertThat(parse(out)).extracting(SseEvent::event).containsExactly("message_start", "content_block_delta");
        GatewayException pending = sse.pending();
        assertThat(pending).isNotNull();
        assertThat(pending.code()).isEqualTo("ModelStreamErrorException");
        assertThat(sse.pending()).isNull();
    }

    @Test
    void eachStreamExceptionOfTheApiMapsToItsKind() {
        assertThat(frameError("modelStreamErrorException", "{\"message\":\"boom\",\"originalStatusCode\":500,\"originalMessage\":\"x\"}"))
                .satisfies(e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.getMessage()).isEqualTo("boom (model status 500: x)");
                });
        assertThat(frameError("serviceUnavailableException", "{\"message\":\"m\"}").status()).isEqualTo(503);
        assertThat(frameError("internalServerException", "{\"message\":\"m\"}").status()).isEqualTo(500);
        assertThat(frameError("validationException", "{\"message\":\"m\"}").status()).isEqualTo(400);
        assertThat(frameError("modelTimeoutException", "{\"message\":\"m\"}").kind()).isEqualTo(ErrorKind.TIMEOUT);
    }

    @Test
    void aCorruptStreamOrOneCutInsideAFrameIsTheVendorsFailure() {
        byte[] frame = concat(chunk(START));
        frame[frame.length - 2] ^= 4;
        assertThatThrownBy(() -> EventStreamSse.invoke(1 << 20, null).convert(Buffer.buffer(frame)))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.code()).isEqualTo("event_stream_corrupt");
                });
        EventStreamSse cut = EventStreamSse.invoke(1 << 20, null);
        cut.convert(Buffer.buffer(concat(chunk(START))).slice(0, 30));
        assertThatThrownBy(cut::end).isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.status()).isEqualTo(502));
    }

    @Test
    void aJsonErrorBodyOnTheStreamEndpointIsNoEventStream() {
        // LiteLLM PR #28551: a JSON error read as frames is a "checksum mismatch"; the edge reads the status first, and
        // fed to the decoder anyway it is a corrupt stream, never a chunk
        Buffer body = Buffer.buffer("{\"message\":\"The security token included in the request is invalid.\"}");
        assertThatThrownBy(() -> EventStreamSse.invoke(1 << 20, null).convert(body))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.status()).isEqualTo(502));
    }

    @Test
    void onlyTheEventStreamContentTypeIsReadAsFrames() {
        assertThat(EventStreamSse.isEventStream("application/vnd.amazon.eventstream")).isTrue();
        assertThat(EventStreamSse.isEventStream("application/json")).isFalse();
        assertThat(EventStreamSse.isEventStream(null)).isFalse();
    }

    private static GatewayException frameError(String type, String payload) {
        try {
            EventStreamSse.converse(1 << 20, null).convert(Buffer.buffer(concat(exception(type, payload))));
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no error");
    }

    private static List<SseEvent> parse(Buffer sse) {
        List<SseEvent> out = new ArrayList<>();
        new SseParser(out::add).feed(sse);
        return out;
    }

    static Message chunk(String vendorAEvent) {
        String b64 = Base64.getEncoder().encodeToString(vendorAEvent.getBytes(StandardCharsets.UTF_8));
        return event("chunk", "{\"bytes\":\"" + b64 + "\",\"p\":\"abcdefghijkl\"}");
    }

    static Message event(String type, String payload) {
        return EventStreamDecoderTest.event(type, payload);
    }

    static Message exception(String type, String payload) {
        Map<String, HeaderValue> h = new LinkedHashMap<>();
        h.put(":exception-type", HeaderValue.fromString(type));
        h.put(":content-type", HeaderValue.fromString("application/json"));
        h.put(":message-type", HeaderValue.fromString("exception"));
        return new Message(h, payload.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] concat(Message... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Message m : messages) m.encode(out);
        return out.toByteArray();
    }
}
