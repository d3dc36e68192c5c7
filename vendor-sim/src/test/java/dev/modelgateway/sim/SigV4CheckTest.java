package dev.modelgateway.sim;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** SigV4Check against requests signed by AWS's own signer: what it accepts, and why it refuses the rest. */
class SigV4CheckTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final String ARN_PATH = "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc/invoke";
    private static final byte[] BODY = "{\"messages\":[]}".getBytes(StandardCharsets.UTF_8);

    private final AwsIdentities identities = new AwsIdentities();
    private final SigV4Check check = new SigV4Check(identities);
    private final AwsIdentities.Identity session = new AwsIdentities.Identity("ASIACHECK0000000001", "check-secret",
            "check-session-token", NOW.plus(Duration.ofHours(1)), "arn:aws:sts::123456789012:assumed-role/r/s");

    SigV4CheckTest() {
        Clock fixed = Clock.fixed(NOW, ZoneOffset.UTC);
        identities.clock(fixed::instant);
        identities.signatureClock(fixed::instant);
        identities.register(session);
        identities.registerLongTerm("AKIACHECK0000000001", "long-term-secret", "arn:aws:iam::123456789012:user/u");
    }

    /** The headers AWS's signer sends for this request, signed at {@code at}. */
    private static Map<String, String> signed(AwsCredentialsIdentity credentials, String rawPath, byte[] body, Instant at) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).protocol("http").host("127.0.0.1").port(9090)
                .encodedPath(rawPath).putHeader("content-type", "application/json").build();
        SdkHttpRequest out = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(request)
                .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC))).request();
        Map<String, String> headers = new LinkedHashMap<>();
        out.forEachHeader((name, values) -> headers.put(name, String.join(",", values)));
        return headers;
    }

    private Map<String, String> bySession() {
        return signed(AwsSessionCredentialsIdentity.create(session.accessKeyId(), session.secretAccessKey(), session.sessionToken()),
                ARN_PATH, BODY, NOW);
    }

    @Test
    void aRequestSignedAsSentIsAcceptedWithItsIdentityAndScope() {
        SigV4Check.Verdict v = check.verify("POST", ARN_PATH, null, bySession(), BODY);
        assertThat(v.ok()).isTrue();
        assertThat(v.identity()).isEqualTo(session);
        assertThat(v.service()).isEqualTo("bedrock");
        assertThat(v.region()).isEqualTo("us-east-1");
        Map<String, String> longTerm = signed(AwsCredentialsIdentity.create("AKIACHECK0000000001", "long-term-secret"), "/", BODY, NOW);
        assertThat(check.verify("POST", "/", "", longTerm, BODY).ok()).isTrue();
    }

    @Test
    void anotherBodyOrTheDecodedPathIsABadSignature() {
        SigV4Check.Verdict body = check.verify("POST", ARN_PATH, null, bySession(), "{\"messages\":[1]}".getBytes(StandardCharsets.UTF_8));
        assertThat(body.problem()).isEqualTo(SigV4Check.Problem.BAD_SIGNATURE);
        assertThat(body.jsonCode()).isEqualTo("InvalidSignatureException");
        assertThat(body.queryCode()).isEqualTo("SignatureDoesNotMatch");
        assertThat(body.status()).isEqualTo(403);
        assertThat(check.verify("POST", ARN_PATH.replace("%3A", ":"), null, bySession(), BODY).problem())
                .isEqualTo(SigV4Check.Problem.BAD_SIGNATURE);
    }

    @Test
    void unknownKeysAndMissingTokensAreUnrecognized() {
        Map<String, String> stranger = signed(AwsCredentialsIdentity.create("AKIASTRANGER0000001", "x"), ARN_PATH, BODY, NOW);
        assertThat(check.verify("POST", ARN_PATH, null, stranger, BODY).jsonCode()).isEqualTo("UnrecognizedClientException");
        Map<String, String> noToken = bySession();
        noToken.remove("X-Amz-Security-Token");
        assertThat(check.verify("POST", ARN_PATH, null, noToken, BODY).problem()).isEqualTo(SigV4Check.Problem.UNKNOWN_KEY);
        Map<String, String> none = bySession();
        none.remove("Authorization");
        assertThat(check.verify("POST", ARN_PATH, null, none, BODY).problem()).isEqualTo(SigV4Check.Problem.MISSING);
    }

    @Test
    void expiredCredentialsAndStaleDatesAreRefused() {
        Map<String, String> headers = bySession();
        identities.clock(() -> session.expiresAt());
        assertThat(check.verify("POST", ARN_PATH, null, headers, BODY).jsonCode()).isEqualTo("ExpiredTokenException");

        identities.clock(() -> NOW);
        identities.signatureClock(() -> NOW.plus(Duration.ofMinutes(6)));
        assertThat(check.verify("POST", ARN_PATH, null, headers, BODY).problem()).isEqualTo(SigV4Check.Problem.STALE_DATE);
        identities.signatureClock(() -> NOW.plus(Duration.ofMinutes(4)));
        assertThat(check.verify("POST", ARN_PATH, null, headers, BODY).ok()).isTrue();
    }
}
