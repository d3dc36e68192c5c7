package dev.modelgateway.sim;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What AWS checks of a request's {@code Authorization}: a SigV4 signature recomputed with AWS's own signer
 * ({@code AwsV4HttpSigner}) over the request as it arrived (method, path as sent, query, the headers it names as
 * signed, the body) for the secret of the access key it names, at the time of its {@code x-amz-date}, scoped to the
 * service's signing name; or the service's API key ({@code Authorization: Bearer}). The refusals are AWS's (403
 * {@code MissingAuthenticationTokenException}, {@code UnrecognizedClientException}, {@code InvalidSignatureException}).
 * One instance per service (Bedrock Runtime's {@code bedrock}, Claude Platform on AWS's {@code aws-external-anthropic}),
 * sharing the key pairs: an IAM identity is the account's, whichever service it calls.
 */
final class BedrockSignatures {
    /** The access key, secret and API key the double accepts unless told others. */
    static final String ACCESS_KEY_ID = "AKIDSIMBEDROCK";
    static final String SECRET_ACCESS_KEY = "sim-bedrock-secret";
    static final String API_KEY = "sim-bedrock-api-key";

    private static final Pattern AUTHORIZATION = Pattern.compile(
            "AWS4-HMAC-SHA256 Credential=([^/,\\s]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request,\\s*SignedHeaders=([^,\\s]+),\\s*Signature=([0-9a-f]+)");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** Bedrock Runtime's signing name (its OpenAI-compatible endpoint's too). */
    static final String BEDROCK = "bedrock";

    private final String service;
    private final Map<String, String> secrets;
    private volatile String apiKey;

    /** Bedrock Runtime's: service {@code bedrock}, the Bedrock API key {@link #API_KEY}. */
    BedrockSignatures() {
        this(BEDROCK, API_KEY, new ConcurrentHashMap<>(Map.of(ACCESS_KEY_ID, SECRET_ACCESS_KEY)));
    }

    private BedrockSignatures(String service, String apiKey, Map<String, String> secrets) {
        this.service = service;
        this.apiKey = apiKey;
        this.secrets = secrets;
    }

    /** Another AWS service's check: its signing name and API key, the same key pairs as this one. */
    BedrockSignatures forService(String signingName, String serviceApiKey) {
        return new BedrockSignatures(signingName, serviceApiKey, secrets);
    }

    /** Accepts signatures made with this key pair too (the STS double's temporary credentials, a test's own). */
    void accept(String accessKeyId, String secretAccessKey) {
        secrets.put(accessKeyId, secretAccessKey);
    }

    void apiKey(String key) {
        apiKey = key;
    }

    /** A refusal, {type, message}: null when the request is authentic. */
    record Refusal(String type, String message) {
    }

    Refusal check(HttpServerRequest req, Buffer body) {
        String authorization = req.getHeader("authorization");
        if (authorization == null) return new Refusal("MissingAuthenticationTokenException", "Missing Authentication Token");
        String bearer = VendorSimulator.bearer(authorization);
        if (bearer != null) {
            return bearer.equals(apiKey) ? null : new Refusal("UnrecognizedClientException", "Invalid API Key format: Must start with pre-defined prefix");
        }
        Matcher m = AUTHORIZATION.matcher(authorization);
        if (!m.matches()) {
            return new Refusal("IncompleteSignatureException", "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.");
        }
        String secret = secrets.get(m.group(1));
        if (secret == null) return new Refusal("UnrecognizedClientException", "The security token included in the request is invalid.");
        String date = req.getHeader("x-amz-date");
        if (date == null) return new Refusal("IncompleteSignatureException", "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
        // AWS's answer to a signature scoped to another service (the signing name is part of the derived key)
        if (!m.group(4).equals(service)) {
            return new Refusal("InvalidSignatureException", "Credential should be scoped to correct service: '" + service + "'. ");
        }
        Instant at = Instant.from(AMZ_DATE.parse(date));
        String expected = recompute(req, body, m.group(1), secret, m.group(3), m.group(4), m.group(5), at);
        return m.group(6).equals(expected) ? null : new Refusal("InvalidSignatureException",
                "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key"
                        + " and signing method. Consult the service documentation for details.");
    }

    private static String recompute(HttpServerRequest req, Buffer body, String accessKeyId, String secret, String region,
                                    String service, String signedHeaders, Instant at) {
        // the Host header, or HTTP/2's :authority
        HostAndPort authority = req.authority();
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(req.method().name()))
                .protocol("http").host(authority.host()).encodedPath(req.path());
        if (authority.port() > 0) request.port(authority.port());
        req.params().forEach(e -> request.appendRawQueryParameter(e.getKey(), e.getValue()));
        for (String name : signedHeaders.split(";")) {
            if (!name.equals("host")) request.putHeader(name, req.headers().getAll(name));
        }
        byte[] bytes = body == null ? new byte[0] : body.getBytes();
        String signed = AwsV4HttpSigner.create().sign(r -> r.identity(AwsCredentialsIdentity.create(accessKeyId, secret))
                .request(request.build())
                .payload(ContentStreamProvider.fromByteArray(bytes))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)))
                .request().firstMatchingHeader("Authorization").orElse("");
        int sig = signed.indexOf("Signature=");
        return sig < 0 ? "" : signed.substring(sig + "Signature=".length());
    }
}
