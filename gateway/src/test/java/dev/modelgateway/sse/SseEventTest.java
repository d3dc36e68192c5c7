package dev.modelgateway.sse;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** An event's data searched in place, eight bytes at a time, finds what a plain search finds, wherever it lies. */
class SseEventTest {
    private static final byte[] MARK = "\"usage\":{".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aPartIsFoundAtEveryPlaceOfTheDataAndNowhereOutsideIt() {
        String filler = "{\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"x\"}}],\"usage\":null}";
        for (int at = 0; at <= filler.length(); at++) {
            String data = filler.substring(0, at) + "\"usage\":{" + filler.substring(at);
            for (int before = 0; before < 9; before++) {
                String around = "u".repeat(before) + "\"usage\":" + data + "\"usage\":{";
                byte[] bytes = around.getBytes(StandardCharsets.UTF_8);
                int offset = before + "\"usage\":".length();
                SseEvent e = new SseEvent(null, 0, -1, bytes, offset, data.length());
                assertThat(e.dataContains(MARK)).as("at %d, offset %d", at, offset).isTrue();
                SseEvent without = new SseEvent(null, 0, -1, (around.substring(0, offset) + filler + "\"usage\":{")
                        .getBytes(StandardCharsets.UTF_8), offset, filler.length());
                assertThat(without.dataContains(MARK)).as("mark only around the data, offset %d", offset).isFalse();
            }
        }
    }

    @Test
    void randomDataAgreesWithAPlainSearch() {
        Random random = new Random(13);
        byte[] alphabet = "\"usage:{}n ".getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(40)];
            for (int i = 0; i < bytes.length; i++) bytes[i] = alphabet[random.nextInt(alphabet.length)];
            int offset = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
            int length = bytes.length - offset == 0 ? 0 : random.nextInt(bytes.length - offset + 1);
            byte[] part = random.nextBoolean() ? MARK : new byte[] {alphabet[random.nextInt(alphabet.length)], '{'};
            SseEvent e = new SseEvent(null, 0, -1, bytes, offset, length);
            String data = new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
            assertThat(e.dataContains(part)).as("%s in %s", new String(part, StandardCharsets.ISO_8859_1), data)
                    .isEqualTo(data.contains(new String(part, StandardCharsets.ISO_8859_1)));
        }
    }
}
