package dev.modelgateway.wire;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The pure wire packages encode URL text exactly as {@link URLEncoder} did in the endpoints before. */
class UrlTextTest {
    @ParameterizedTest
    @ValueSource(strings = {"resp_68a1b2", "gpt-4o-realtime-preview", "a b+c", "x/y?z=1&w#v", "intent=transcription",
            "ünïcödé €", "emoji 🎙", "~!*'()._-", "%41", ""})
    void encodesAsUrlEncoderDoes(String text) {
        assertThat(UrlText.encode(text)).isEqualTo(URLEncoder.encode(text, StandardCharsets.UTF_8));
    }
}
