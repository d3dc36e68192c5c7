package dev.modelgateway.wire;

import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one check of a vendor's 2xx JSON answer, on every path: the same 502 naming the vendor. */
class VendorJsonTest {
    static final Buffer GARBAGE = Buffer.buffer("<html>502 Bad Gateway</html>");

    @Test
    void anAnswerThatIsNotJsonIsTheSame502EverywhereNamingTheVendor() {
        assertInvalid(() -> VendorJson.parse(GARBAGE, Vendor.GEMINI), "gemini");
        assertInvalid(() -> VendorJson.object(GARBAGE, Vendor.OPENAI), "openai");
        assertInvalid(() -> VendorJson.fields(GARBAGE, Set.of("usage"), Vendor.ANTHROPIC), "anthropic");
        // an operation's answer must be an object: an array is as unusable as no JSON
        assertInvalid(() -> VendorJson.object(Buffer.buffer("[1,2]"), Vendor.OPENAI), "openai");
    }

    @Test
    void aJsonAnswerIsReadAsItsPathNeeds() {
        assertThat(VendorJson.parse(Buffer.buffer("[1,2]"), Vendor.GEMINI).size()).isEqualTo(2);
        assertThat(VendorJson.object(Buffer.buffer("{\"a\":1}"), Vendor.OPENAI).path("a").asInt()).isEqualTo(1);
        assertThat(VendorJson.fields(Buffer.buffer("{\"usage\":{\"x\":1},\"big\":[1,2,3]}"), Set.of("usage"), Vendor.OPENAI))
                .hasToString("{\"usage\":{\"x\":1}}");
    }

    private static void assertInvalid(Runnable read, String vendor) {
        assertThatThrownBy(read::run).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(502);
            assertThat(e.getMessage()).isEqualTo("Vendor '" + vendor + "' returned invalid JSON.");
        });
    }
}
