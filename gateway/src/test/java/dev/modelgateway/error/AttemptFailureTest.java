package dev.modelgateway.error;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each case of {@link AttemptFailure} comes from the type of the failure that arrived, never from its code. */
class AttemptFailureTest {

    @Test
    void aVendorsAnswerIsItsStatusWithItsHeaders() {
        AttemptFailure why = AttemptFailure.of(new VendorError(429, MultiMap.caseInsensitiveMultiMap().set("retry-after", "7"),
                Buffer.buffer("{}")));

        assertThat(why).isInstanceOfSatisfying(AttemptFailure.Status.class, s -> {
            assertThat(s.status()).isEqualTo(429);
            assertThat(s.credentialRefused()).isFalse();
            assertThat(s.header().apply("retry-after")).isEqualTo("7");
        });
    }

    @Test
    void aVendorsRelayed401Or403RefusesTheGatewaysCredential() {
        for (int status : new int[]{401, 403}) {
            AttemptFailure why = AttemptFailure.of(new VendorError(status, MultiMap.caseInsensitiveMultiMap(), Buffer.buffer()));

            assertThat(why).isInstanceOfSatisfying(AttemptFailure.Status.class, s -> {
                assertThat(s.status()).isEqualTo(status);
                assertThat(s.credentialRefused()).isTrue();
            });
        }
    }

    @Test
    void aDecodedCredentialRefusalIsA502ThatRefusedTheCredential() {
        GatewayException refused = new GatewayException.CredentialRefused("vendorA", 401);

        assertThat(AttemptFailure.of(refused)).isInstanceOfSatisfying(AttemptFailure.Status.class, s -> {
            assertThat(s.status()).isEqualTo(502);
            assertThat(s.credentialRefused()).isTrue();
        });
        assertThat(refused.code()).isEqualTo("vendor_credential_refused");
        assertThat(refused.getMessage()).isEqualTo("Vendor 'vendorA' refused the gateway's credential (HTTP 401); the operator"
                + " must check its API key.");
    }

    @Test
    void anOpenCircuitKeepsItsRetryHint() {
        GatewayException open = new GatewayException.CircuitOpen("Vendor 'vendorA' failed every recent request.", 12);

        assertThat(AttemptFailure.of(open)).isInstanceOfSatisfying(AttemptFailure.CircuitOpen.class,
                c -> assertThat(c.header().apply("retry-after")).isEqualTo("12"));
        assertThat(open.status()).isEqualTo(503);
        assertThat(open.code()).isEqualTo("circuit_open");
        assertThat(open.headers()).isEqualTo(Map.of("retry-after", "12"));
    }

    @Test
    void aVendorWithoutCredentialIsNotConfigured() {
        GatewayException missing = new GatewayException.NotConfigured("Vendor 'vendorA' is not configured on this gateway.",
                Map.of("x-should-retry", "false"));

        assertThat(AttemptFailure.of(missing)).isInstanceOf(AttemptFailure.NotConfigured.class);
        assertThat(missing.status()).isEqualTo(503);
        assertThat(missing.code()).isEqualTo("vendor_not_configured");
        assertThat(missing.headers()).isEqualTo(Map.of("x-should-retry", "false"));
    }

    @Test
    void theGatewaysSaturationIsOverloadedWithItsRetryHint() {
        GatewayException overloaded = new GatewayException.Overloaded("The gateway is overloaded.", "1");

        assertThat(AttemptFailure.of(overloaded)).isInstanceOfSatisfying(AttemptFailure.Overloaded.class,
                o -> assertThat(o.header().apply("retry-after")).isEqualTo("1"));
        assertThat(overloaded.status()).isEqualTo(503);
        assertThat(overloaded.code()).isEqualTo("gateway_overloaded");
    }

    @Test
    void aCallerWhoWentAwayIsTheCallersExit() {
        GatewayException gone = new GatewayException.CallerLeft("The caller went away.");

        assertThat(AttemptFailure.of(gone)).isInstanceOf(AttemptFailure.CallerLeft.class);
        assertThat(gone.status()).isEqualTo(499);
        assertThat(gone.code()).isEqualTo("caller_left");
    }

    @Test
    void aTimeoutOfAnyKindIsTimedOut() {
        GatewayException late = GatewayException.of(ErrorKind.TIMEOUT, "Vendor 'vendorA' did not answer in time.")
                .withCode("deadline_exceeded");

        assertThat(AttemptFailure.of(late)).isInstanceOf(AttemptFailure.TimedOut.class);
    }

    @Test
    void anyOtherRefusalIsItsStatus() {
        GatewayException refused = GatewayException.of(ErrorKind.UNAVAILABLE, "Busy.").withHeaders(Map.of("retry-after", "3"));

        assertThat(AttemptFailure.of(refused)).isInstanceOfSatisfying(AttemptFailure.Status.class, s -> {
            assertThat(s.status()).isEqualTo(503);
            assertThat(s.credentialRefused()).isFalse();
            assertThat(s.header().apply("retry-after")).isEqualTo("3");
        });
    }

    @Test
    void aCodeAloneMakesNoCase() {
        for (String code : new String[]{"circuit_open", "vendor_not_configured", "gateway_overloaded", "caller_left",
                "vendor_credential_refused"}) {
            GatewayException untyped = GatewayException.of(ErrorKind.UNAVAILABLE, "Unavailable.").withCode(code);

            assertThat(AttemptFailure.of(untyped)).as(code).isInstanceOfSatisfying(AttemptFailure.Status.class,
                    s -> assertThat(s.credentialRefused()).isFalse());
        }
    }

    @Test
    void anythingElseIsATransportFailure() {
        assertThat(AttemptFailure.of(new ConnectException("Connection refused"))).isInstanceOf(AttemptFailure.Transport.class);
    }
}
