package dev.modelgateway.wire.bedrock;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The decoder against frames encoded by AWS's reference library ({@code software.amazon.eventstream}). */
class EventStreamDecoderTest {
    private static final int CAP = 1 << 20;

    @Property(tries = 300, seed = "31")
    void decodesTheReferenceEncodingWhateverTheReadBoundaries(@ForAll("messages") List<Case> cases, @ForAll long splitSeed) {
        List<Message> messages = cases.stream().map(Case::message).toList();
        byte[] stream = concat(messages);
        List<EventStreamMessage> decoded = new ArrayList<>();
        EventStreamDecoder decoder = new EventStreamDecoder(CAP);
        Random rnd = new Random(splitSeed);
        for (int pos = 0; pos < stream.length; ) {
            int n = Math.min(stream.length - pos, rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(stream.length) : 1 + rnd.nextInt(40));
            decoder.feed(stream, pos, n, decoded::add);
            pos += n;
        }
        assertThat(decoder.midMessage()).isFalse();
        assertThat(decoded).hasSize(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            assertThat(decoded.get(i).payload()).isEqualTo(messages.get(i).getPayload());
            assertThat(javaValues(decoded.get(i).headers())).isEqualTo(cases.get(i).expected());
            assertThat(decoded.get(i).headers().keySet()).containsExactlyElementsOf(messages.get(i).getHeaders().keySet());
        }
    }

    @Property(tries = 300, seed = "32")
    void anyFlippedBitIsRefusedAndNoMessageOfItIsHandedOut(@ForAll("message") Case c, @ForAll @IntRange(min = 0, max = 1 << 30) int where) {
        byte[] frame = encode(c.message());
        int bit = where % (frame.length * 8);
        frame[bit / 8] ^= (byte) (1 << (bit % 8));
        List<EventStreamMessage> decoded = new ArrayList<>();
        // a flipped length bit may announce a longer message that is never finished: nothing is handed out either way
        try {
            new EventStreamDecoder(CAP).feed(frame, 0, frame.length, decoded::add);
        } catch (EventStreamException expected) {
            // the CRCs caught it
        }
        assertThat(decoded).isEmpty();
    }

    @Test
    void aWrongMessageCrcEndsTheStreamForGood() {
        byte[] frame = encode(event("chunk", "{\"bytes\":\"e30=\"}"));
        frame[frame.length - 1] ^= 1;
        EventStreamDecoder decoder = new EventStreamDecoder(CAP);
        assertThatThrownBy(() -> decoder.feed(frame, 0, frame.length, m -> { }))
                .isInstanceOf(EventStreamException.class).hasMessageContaining("message CRC");
        byte[] good = encode(event("chunk", "{}"));
        assertThatThrownBy(() -> decoder.feed(good, 0, good.length, m -> { })).isInstanceOf(EventStreamException.class);
    }

    @Test
    void aWrongPreludeCrcIsRefusedBeforeTheLengthIsTrusted() {
        byte[] frame = encode(event("chunk", "{}"));
        frame[9] ^= 1;
        assertThatThrownBy(() -> new EventStreamDecoder(CAP).feed(frame, 0, 12, m -> { }))
                .isInstanceOf(EventStreamException.class).hasMessageContaining("prelude CRC");
    }

    @Test
    void aMessageAboveTheCapIsRefusedFromItsPreludeAlone() {
        byte[] frame = encode(event("chunk", "x".repeat(5000)));
        EventStreamDecoder decoder = new EventStreamDecoder(4096);
        assertThatThrownBy(() -> decoder.feed(frame, 0, 12, m -> { }))
                .isInstanceOf(EventStreamException.class).hasMessageContaining("exceeds the limit of 4096");
    }

    @Test
    void aMessageAtTheCapPasses() {
        byte[] frame = encode(event("chunk", "x".repeat(3000)));
        List<EventStreamMessage> out = new ArrayList<>();
        new EventStreamDecoder(frame.length).feed(frame, 0, frame.length, out::add);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.messageType()).isEqualTo("event");
            assertThat(m.eventType()).isEqualTo("chunk");
            assertThat(m.contentType()).isEqualTo("application/json");
            assertThat(m.exceptionType()).isNull();
        });
    }

    @Test
    void aStreamCutInsideAMessageIsSeenAsSuch() {
        byte[] frame = encode(event("chunk", "{}"));
        EventStreamDecoder decoder = new EventStreamDecoder(CAP);
        decoder.feed(frame, 0, 5, m -> { });
        assertThat(decoder.midMessage()).isTrue();
        decoder.feed(frame, 5, frame.length - 5, m -> { });
        assertThat(decoder.midMessage()).isFalse();
    }

    @Test
    void impossibleLengthsAreRefused() {
        // headers longer than the message can hold, with a prelude CRC that matches
        ByteBuffer prelude = ByteBuffer.allocate(12).putInt(16).putInt(8);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(prelude.array(), 0, 8);
        prelude.putInt((int) crc.getValue());
        assertThatThrownBy(() -> new EventStreamDecoder(CAP).feed(prelude.array(), 0, 12, m -> { }))
                .isInstanceOf(EventStreamException.class).hasMessageContaining("impossible");
    }

    @Test
    void byteAndShortHeadersAreOneAndTwoBytes() {
        // headers: "b" byte -7, "s" short 300; payload "{}" (AWS docs, "Event stream encoding": type 2 is one byte)
        byte[] headers = {1, 'b', 2, -7, 1, 's', 3, 1, 44};
        ByteBuffer frame = ByteBuffer.allocate(16 + headers.length + 2).putInt(16 + headers.length + 2).putInt(headers.length);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(frame.array(), 0, 8);
        frame.putInt((int) crc.getValue()).put(headers).put(new byte[]{'{', '}'});
        crc.reset();
        crc.update(frame.array(), 0, frame.position());
        frame.putInt((int) crc.getValue());
        List<EventStreamMessage> out = new ArrayList<>();
        new EventStreamDecoder(CAP).feed(frame.array(), 0, frame.capacity(), out::add);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.headers()).containsExactly(Map.entry("b", (byte) -7), Map.entry("s", (short) 300));
            assertThat(new String(m.payload(), StandardCharsets.UTF_8)).isEqualTo("{}");
        });
    }

    static Message event(String type, String payload) {
        Map<String, HeaderValue> h = new LinkedHashMap<>();
        h.put(":event-type", HeaderValue.fromString(type));
        h.put(":content-type", HeaderValue.fromString("application/json"));
        h.put(":message-type", HeaderValue.fromString("event"));
        return new Message(h, payload.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] encode(Message m) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.encode(out);
        return out.toByteArray();
    }

    static byte[] concat(List<Message> messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        messages.forEach(m -> m.encode(out));
        return out.toByteArray();
    }

    /** A reference message and the Java values the decoder should give for its headers (byte arrays as lists). */
    record Case(Message message, Map<String, Object> expected) {
    }

    @Provide
    Arbitrary<List<Case>> messages() {
        return message().list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<Case> message() {
        Arbitrary<Map<String, Object[]>> headers = Arbitraries.maps(
                Arbitraries.strings().withCharRange('a', 'z').withChars(':', '-').ofMinLength(1).ofMaxLength(30), headerValue())
                .ofMaxSize(8);
        Arbitrary<byte[]> payload = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
        return Combinators.combine(headers, payload).as((h, p) -> {
            Map<String, HeaderValue> values = new LinkedHashMap<>();
            Map<String, Object> expected = new LinkedHashMap<>();
            h.forEach((name, pair) -> {
                values.put(name, (HeaderValue) pair[0]);
                expected.put(name, pair[1]);
            });
            return new Case(new Message(values, p), expected);
        });
    }

    /**
     * {reference header value, the Java value expected}. Byte and short headers are left out: the reference library
     * (1.0.1) writes their type without their value (its {@code encodeValue} is empty for both);
     * {@link #byteAndShortHeadersAreOneAndTwoBytes} checks them on a frame written by hand.
     */
    private static Arbitrary<Object[]> headerValue() {
        return Arbitraries.oneOf(List.of(
                Arbitraries.of(true, false).map(b -> new Object[]{HeaderValue.fromBoolean(b), b}),
                Arbitraries.integers().map(v -> new Object[]{HeaderValue.fromInteger(v), v}),
                Arbitraries.longs().map(v -> new Object[]{HeaderValue.fromLong(v), v}),
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300).map(v -> new Object[]{HeaderValue.fromByteArray(v), toList(v)}),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(300).map(v -> new Object[]{HeaderValue.fromString(v), v}),
                Arbitraries.longs().between(-1L << 40, 1L << 40).map(ms -> new Object[]{HeaderValue.fromTimestamp(Instant.ofEpochMilli(ms)), Instant.ofEpochMilli(ms)}),
                Arbitraries.longs().tuple2().map(t -> new Object[]{HeaderValue.fromUuid(new UUID(t.get1(), t.get2())), new UUID(t.get1(), t.get2())})));
    }

    private static Map<String, Object> javaValues(Map<String, Object> headers) {
        Map<String, Object> out = new LinkedHashMap<>();
        headers.forEach((name, v) -> out.put(name, v instanceof byte[] b ? toList(b) : v));
        return out;
    }

    private static List<Byte> toList(byte[] b) {
        List<Byte> out = new ArrayList<>(b.length);
        for (byte x : b) out.add(x);
        return out;
    }
}
