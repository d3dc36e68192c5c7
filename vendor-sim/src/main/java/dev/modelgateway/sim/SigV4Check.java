package dev.modelgateway.sim;

import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Verifies a received request's SigV4 signature the way AWS does: the access key id must be one the simulator knows
 * ({@link AwsIdentities}), its session token must come with it, its date must be within 5 minutes of the signer's
 * clock ({@link AwsIdentities#signatureClock}), and the signature must equal the one AWS's own signer
 * ({@code AwsV4HttpSigner}) computes for the same method, path as received, query, signed headers and body bytes with
 * that identity's secret (AWS Signature Version 4, "Create a signed AWS API request",
 * docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
 *
 * <p>Each AWS double maps a {@link Problem} to its protocol's error ({@link Verdict#queryCode()} for STS's XML,
 * {@link Verdict#jsonCode()} for Bedrock Runtime's JSON).
 */
public final class SigV4Check {
    /** Why a request is refused, each with the message AWS sends. */
    public enum Problem {
        MISSING("MissingAuthenticationToken", "MissingAuthenticationTokenException", "Missing Authentication Token"),
        MALFORMED("IncompleteSignature", "IncompleteSignatureException",
                "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters and an X-Amz-Date header."),
        UNKNOWN_KEY("InvalidClientTokenId", "UnrecognizedClientException", "The security token included in the request is invalid."),
        EXPIRED("ExpiredToken", "ExpiredTokenException", "The security token included in the request is expired"),
        STALE_DATE("SignatureDoesNotMatch", "InvalidSignatureException", "Signature expired: the request's X-Amz-Date is more than 5 minutes from the server's time."),
        BAD_SIGNATURE("SignatureDoesNotMatch", "InvalidSignatureException", "The request signature we calculated does not match"
                + " the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service"
                + " documentation for details.");

        final String queryCode;
        final String jsonCode;
        final String message;

        Problem(String queryCode, String jsonCode, String message) {
            this.queryCode = queryCode;
            this.jsonCode = jsonCode;
            this.message = message;
        }
    }

    /**
     * The outcome: {@code identity} when the signature holds, else the {@code problem}.
     *
     * @param service the signing service name of the credential scope ({@code bedrock}, {@code sts}, …), when parsed
     * @param region  the region of the credential scope, when parsed
     */
    public record Verdict(AwsIdentities.Identity identity, Problem problem, String service, String region) {
        public boolean ok() {
            return problem == null;
        }

        /** STS's (query protocol) error code: {@code SignatureDoesNotMatch}, {@code InvalidClientTokenId}, … */
        public String queryCode() {
            return problem.queryCode;
        }

        /** Bedrock Runtime's (JSON protocol) error type: {@code InvalidSignatureException}, … */
        public String jsonCode() {
            return problem.jsonCode;
        }

        public String message() {
            return problem.message;
        }

        /** All of AWS's refusals of a signature are 403 Forbidden. */
        public int status() {
            return 403;
        }
    }

    private static final Pattern AUTHORIZATION = Pattern.compile(
            "AWS4-HMAC-SHA256 Credential=([^/,\\s]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request,\\s*SignedHeaders=([^,\\s]+),\\s*Signature=([0-9a-f]{64})");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final Duration MAX_SKEW = Duration.ofMinutes(5);
    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

    private final AwsIdentities identities;

    public SigV4Check(AwsIdentities identities) {
        this.identities = identities;
    }

    /**
     * @param rawPath  the path exactly as received (still percent-encoded)
     * @param rawQuery the query as received, without {@code ?}; null or empty for none
     * @param headers  the received headers, names in any case (a repeated header's values joined with {@code ", "})
     * @param body     the received body bytes
     */
    public Verdict verify(String method, String rawPath, String rawQuery, Map<String, String> headers, byte[] body) {
        Map<String, String> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        String authorization = lower.get("authorization");
        if (authorization == null || authorization.isBlank()) return refused(Problem.MISSING, null, null);
        Matcher m = AUTHORIZATION.matcher(authorization.trim());
        String amzDate = lower.get("x-amz-date");
        if (!m.matches() || amzDate == null) return refused(Problem.MALFORMED, null, null);
        String keyId = m.group(1), scopeDate = m.group(2), region = m.group(3), service = m.group(4);
        Optional<AwsIdentities.Identity> found = identities.find(keyId);
        if (found.isEmpty()) return refused(Problem.UNKNOWN_KEY, service, region);
        AwsIdentities.Identity identity = found.get();
        if (identity.sessionToken() != null && !identity.sessionToken().equals(lower.get("x-amz-security-token"))) {
            return refused(Problem.UNKNOWN_KEY, service, region);
        }
        Instant now = identities.clock().instant();
        if (identity.expiresAt() != null && !now.isBefore(identity.expiresAt())) return refused(Problem.EXPIRED, service, region);
        Instant signedAt;
        try {
            signedAt = AMZ_DATE.parse(amzDate, Instant::from);
        } catch (DateTimeParseException e) {
            return refused(Problem.MALFORMED, service, region);
        }
        if (!amzDate.startsWith(scopeDate)) return refused(Problem.BAD_SIGNATURE, service, region);
        if (Duration.between(signedAt, identities.signatureClock().instant()).abs().compareTo(MAX_SKEW) > 0) {
            return refused(Problem.STALE_DATE, service, region);
        }

        String expected = recompute(method, rawPath, rawQuery, lower, m.group(5), body, identity, signedAt, region, service);
        return expected.equals(authorization.trim()) ? new Verdict(identity, null, service, region)
                : refused(Problem.BAD_SIGNATURE, service, region);
    }

    /** The Authorization header AWS's signer gives the received request, over exactly the headers it says it signed. */
    private static String recompute(String method, String rawPath, String rawQuery, Map<String, String> lower, String signedHeaders,
                                    byte[] body, AwsIdentities.Identity identity, Instant signedAt, String region, String service) {
        String host = lower.getOrDefault("host", "localhost");
        int colon = host.lastIndexOf(':');
        SdkHttpRequest.Builder request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.fromValue(method.toUpperCase(Locale.ROOT)))
                .protocol("http")
                .host(colon > 0 ? host.substring(0, colon) : host)
                .encodedPath(rawPath)
                .rawQueryParameters(query(rawQuery));
        if (colon > 0) request.port(Integer.parseInt(host.substring(colon + 1)));
        for (String name : signedHeaders.split(";")) {
            String value = lower.get(name);
            if (value != null) request.putHeader(name, value);
        }
        AwsCredentialsIdentity credentials = identity.sessionToken() == null
                ? AwsCredentialsIdentity.create(identity.accessKeyId(), identity.secretAccessKey())
                : AwsSessionCredentialsIdentity.create(identity.accessKeyId(), identity.secretAccessKey(), identity.sessionToken());
        var signed = SIGNER.sign(r -> r.identity(credentials)
                .request(request.build())
                .payload(ContentStreamProvider.fromByteArrayUnsafe(body == null ? new byte[0] : body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)));
        return signed.request().firstMatchingHeader("Authorization").orElse("");
    }

    private static Map<String, List<String>> query(String rawQuery) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) return out;
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return out;
    }

    /** Percent-decoding only: in a SigV4 query a '+' is a plus sign, not a space. */
    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static Verdict refused(Problem p, String service, String region) {
        return new Verdict(null, p, service, region);
    }
}
