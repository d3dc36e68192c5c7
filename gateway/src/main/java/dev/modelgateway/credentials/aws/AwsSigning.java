package dev.modelgateway.credentials.aws;

import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SigV4 over one request exactly as it will be sent, with AWS's own signer ({@code AwsV4HttpSigner}, http-auth-aws):
 * the path as it goes on the wire (already percent-encoded; the signer encodes it once more for the canonical request,
 * as every AWS service but S3 expects), the query, the headers that will be sent and the body's bytes, hashed into
 * the signature. CPU only (a SHA-256 of the body and a few HMACs), so it may run on an event loop; the signing instant
 * comes from the caller's clock. {@code AwsSigningOracleTest} proves it equal to what {@code BedrockRuntimeClient}
 * sends, ARN model ids included.
 */
public final class AwsSigning {
    /** Bedrock Runtime ({@code bedrock-runtime.{region}.amazonaws.com}, its OpenAI-compatible {@code /openai/v1} too). */
    public static final String BEDROCK = "bedrock";
    /** Bedrock's Mantle endpoint ({@code bedrock-mantle.{region}.api.aws}; openai-java's Bedrock guide). */
    public static final String BEDROCK_MANTLE = "bedrock-mantle";
    /**
     * Claude Platform on AWS ({@code aws-external-anthropic.{region}.api.aws}; its user guide, "Making requests":
     * {@code --aws-sigv4 "aws:amz:<region>:aws-external-anthropic"}).
     */
    public static final String CLAUDE_PLATFORM = "aws-external-anthropic";

    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

    private final String region;
    private final String service;

    /**
     * @param region  the region the request goes to ({@code us-east-1})
     * @param service the signing name: {@link #BEDROCK}, {@link #BEDROCK_MANTLE}, {@link #CLAUDE_PLATFORM}
     */
    public AwsSigning(String region, String service) {
        this.region = region;
        this.service = service;
    }

    /**
     * The headers to add to the request: {@code Authorization}, {@code X-Amz-Date}, {@code x-amz-content-sha256} (the
     * body's SHA-256, which AWS's signer adds and signs, as {@code BedrockRuntimeClient} sends it),
     * {@code X-Amz-Security-Token} for temporary credentials, and {@code Host} when {@code headers} has none (send that
     * value: it is signed; it is what an HTTP client sends for {@code uri} anyway, the port only when not the scheme's
     * default). Cost, measured on the shared 2-core test machine: about 35 µs for a 2 KB body, plus about 0.5 µs per KB.
     *
     * @param method      the HTTP method
     * @param uri         the URL as sent: scheme, host, port, raw path (percent-encoded exactly as on the wire), raw query
     * @param headers     every header that will be sent and should be signed (all given are signed, except those AWS's
     *                    signer never signs: user-agent, connection, expect, x-amzn-trace-id)
     * @param body        the exact body bytes that will be sent (empty for none)
     * @param credentials the AWS credentials (session credentials add their token)
     * @param at          the signing instant
     */
    public Map<String, String> sign(String method, URI uri, Map<String, String> headers, byte[] body,
                                    AwsCredentialsIdentity credentials, Instant at) {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.valueOf(method.toUpperCase(Locale.ROOT)))
                .protocol(uri.getScheme())
                .host(uri.getHost())
                .encodedPath(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                .rawQueryParameters(query(uri.getRawQuery()));
        if (uri.getPort() != -1) request.port(uri.getPort());
        headers.forEach(request::putHeader);
        SdkHttpRequest signed = SIGNER.sign(r -> r.identity(credentials)
                .request(request.build())
                .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC))).request();
        // the signed request keeps each given header under the name it was given (and adds Host only when no header
        // of that name, in any case, was given), so what is not among the given names is what the signer added
        Map<String, String> added = new LinkedHashMap<>();
        signed.forEachHeader((name, values) -> {
            if (!headers.containsKey(name)) added.put(name, values.size() == 1 ? values.getFirst() : String.join(",", values));
        });
        return added;
    }

    private static Map<String, List<String>> query(String rawQuery) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) return out;
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            out.computeIfAbsent(decode(eq < 0 ? pair : pair.substring(0, eq)), k -> new ArrayList<>())
                    .add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return out;
    }

    /** Percent-decoding only (the signer re-encodes): in a URL's query a '+' stays a plus sign. */
    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
