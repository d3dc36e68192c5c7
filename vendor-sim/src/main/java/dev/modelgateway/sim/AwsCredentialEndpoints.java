package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The places AWS credentials come from, simulated on their real wire: STS ({@code POST /}, the query protocol's
 * form body, {@code AssumeRole} SigV4-signed by the caller and {@code AssumeRoleWithWebIdentity} unsigned, XML
 * answers; docs.aws.amazon.com/STS/latest/APIReference), the container credentials endpoint of ECS and EKS Pod
 * Identity ({@code GET /aws/container-credentials} with the {@code Authorization} token; "Amazon ECS task IAM role",
 * "EKS Pod Identity"), and the instance metadata service, IMDSv2 only ({@code PUT /latest/api/token}, then the
 * {@code /latest/meta-data/iam/security-credentials/} role and its credentials; "Use IMDSv2", EC2 user guide).
 * Every credential issued is registered in {@link AwsIdentities}, so the simulator's AWS doubles accept it. Each
 * call is counted ({@link #calls}), failures included.
 *
 * <p>STS answers at the root because that is where the AWS SDK for Java v2 sends it whatever the endpoint's path
 * (its query protocol drops the path: aws-sdk-java-v2 issue 3387), as real STS does.
 */
public final class AwsCredentialEndpoints {
    public static final String CONTAINER_PATH = "/aws/container-credentials";
    private static final String IMDS_CREDENTIALS = "/latest/meta-data/iam/security-credentials/";
    private static final String STS_NS = "https://sts.amazonaws.com/doc/2011-06-15/";
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws(?:-cn|-us-gov)?:iam::(\\d{12}):role/(?:[\\w+=,.@-]+/)*([\\w+=,.@-]+)");
    private static final Duration ROLE_CHAINING_LIMIT = Duration.ofHours(1);
    /** The container's and the instance's credentials last an hour (STS's follow the request's DurationSeconds). */
    private static final Duration PLATFORM_LIFETIME = Duration.ofHours(1);
    private static final String CONTAINER_TOKEN = "sim-container-authorization-token";
    private static final String INSTANCE_ROLE = "sim-instance-role";

    private final AwsIdentities identities;
    private final SigV4Check sigV4;
    private final Map<String, String> externalIds = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Set<String> imdsTokens = ConcurrentHashMap.newKeySet();
    private volatile String lastWebIdentityToken;

    AwsCredentialEndpoints(AwsIdentities identities) {
        this.identities = identities;
        this.sigV4 = new SigV4Check(identities);
    }

    /**
     * {@code AssumeRole} of {@code roleArn} needs this external id (the confused-deputy guard; IAM user guide, "How to
     * use an external ID"); null: no longer.
     */
    public void requireExternalId(String roleArn, String externalId) {
        if (externalId == null) externalIds.remove(roleArn);
        else externalIds.put(roleArn, externalId);
    }

    /**
     * How often an action was called: {@code AssumeRole}, {@code AssumeRoleWithWebIdentity}, {@code container}
     * (credentials fetched from the container endpoint) or {@code imds} (credentials fetched from instance metadata).
     */
    public int calls(String action) {
        AtomicInteger n = calls.get(action);
        return n == null ? 0 : n.get();
    }

    /** The web identity token the last {@code AssumeRoleWithWebIdentity} presented (the OIDC JWT, as given). */
    public String lastWebIdentityToken() {
        return lastWebIdentityToken;
    }

    /** The token the container endpoint expects in {@code Authorization} (ECS and EKS put it in a file). */
    public String containerAuthorizationToken() {
        return CONTAINER_TOKEN;
    }

    public String instanceRole() {
        return INSTANCE_ROLE;
    }

    /** Handles the request when it is for one of these endpoints. */
    boolean handle(HttpServerRequest req) {
        String path = req.path();
        if (path.equals("/") && req.method() == HttpMethod.POST) {
            req.body().onSuccess(body -> sts(req, body));
        } else if (path.equals(CONTAINER_PATH)) {
            container(req);
        } else if (path.startsWith("/latest/")) {
            imds(req, path);
        } else {
            return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ STS

    private void sts(HttpServerRequest req, Buffer raw) {
        Map<String, String> form = form(raw.toString(StandardCharsets.UTF_8));
        String action = form.getOrDefault("Action", "");
        count(action);
        if (req.method() != HttpMethod.POST || !"2011-06-15".equals(form.get("Version"))) {
            stsError(req, 400, "Sender", "InvalidAction", "Could not find operation " + action + " for version " + form.get("Version"));
            return;
        }
        switch (action) {
            case "AssumeRole" -> assumeRole(req, raw, form);
            case "AssumeRoleWithWebIdentity" -> assumeRoleWithWebIdentity(req, form);
            default -> stsError(req, 400, "Sender", "InvalidAction", "Could not find operation " + action + " for version 2011-06-15");
        }
    }

    private void assumeRole(HttpServerRequest req, Buffer raw, Map<String, String> form) {
        Map<String, String> headers = new LinkedHashMap<>();
        req.headers().forEach(e -> headers.merge(e.getKey(), e.getValue(), (a, b) -> a + ", " + b));
        SigV4Check.Verdict verdict = sigV4.verify(req.method().name(), rawPath(req), req.query(), headers, raw.getBytes());
        if (!verdict.ok()) {
            stsError(req, verdict.status(), "Sender", verdict.queryCode(), verdict.message());
            return;
        }
        String roleArn = form.get("RoleArn");
        String sessionName = form.get("RoleSessionName");
        Matcher role = roleArn == null ? null : ROLE_ARN.matcher(roleArn);
        if (role == null || !role.matches() || sessionName == null) {
            stsError(req, 400, "Sender", "ValidationError", "1 validation error detected: Value at 'roleArn' or 'roleSessionName' failed to satisfy constraint");
            return;
        }
        String required = externalIds.get(roleArn);
        if (required != null && !required.equals(form.get("ExternalId"))) {
            stsError(req, 403, "Sender", "AccessDenied", "User: " + verdict.identity().arn()
                    + " is not authorized to perform: sts:AssumeRole on resource: " + roleArn);
            return;
        }
        Duration duration = duration(form);
        boolean chained = verdict.identity().arn() != null && verdict.identity().arn().contains(":assumed-role/");
        if (duration == null || chained && duration.compareTo(ROLE_CHAINING_LIMIT) > 0) {
            stsError(req, 400, "Sender", "ValidationError", chained
                    ? "The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining."
                    : "1 validation error detected: Value at 'durationSeconds' failed to satisfy constraint: Member must have value between 900 and 43200");
            return;
        }
        stsCredentials(req, "AssumeRole", role.group(1), role.group(2), sessionName, duration, "");
    }

    private void assumeRoleWithWebIdentity(HttpServerRequest req, Map<String, String> form) {
        String roleArn = form.get("RoleArn");
        String token = form.get("WebIdentityToken");
        Matcher role = roleArn == null ? null : ROLE_ARN.matcher(roleArn);
        Duration duration = duration(form);
        if (role == null || !role.matches() || form.get("RoleSessionName") == null || duration == null) {
            stsError(req, 400, "Sender", "ValidationError", "1 validation error detected: Value at 'roleArn', 'roleSessionName' or"
                    + " 'durationSeconds' failed to satisfy constraint");
            return;
        }
        if (token == null || token.isBlank()) {
            stsError(req, 400, "Sender", "InvalidIdentityToken", "Couldn't retrieve verification key from your identity provider");
            return;
        }
        lastWebIdentityToken = token;
        stsCredentials(req, "AssumeRoleWithWebIdentity", role.group(1), role.group(2), form.get("RoleSessionName"), duration,
                "<SubjectFromWebIdentityToken>system:serviceaccount:default:gateway</SubjectFromWebIdentityToken>"
                        + "<Audience>sts.amazonaws.com</Audience><Provider>oidc.sim.local</Provider>");
    }

    private void stsCredentials(HttpServerRequest req, String action, String account, String roleName, String session,
                                Duration duration, String extra) {
        String arn = "arn:aws:sts::" + account + ":assumed-role/" + roleName + "/" + session;
        AwsIdentities.Identity id = identities.issue(arn, duration);
        String xml = "<" + action + "Response xmlns=\"" + STS_NS + "\"><" + action + "Result>" + extra
                + "<AssumedRoleUser><Arn>" + xml(arn) + "</Arn><AssumedRoleId>AROASIM" + account + ":" + xml(session) + "</AssumedRoleId></AssumedRoleUser>"
                + "<Credentials><AccessKeyId>" + id.accessKeyId() + "</AccessKeyId><SecretAccessKey>" + xml(id.secretAccessKey())
                + "</SecretAccessKey><SessionToken>" + xml(id.sessionToken()) + "</SessionToken><Expiration>" + id.expiresAt()
                + "</Expiration></Credentials></" + action + "Result><ResponseMetadata><RequestId>" + UUID.randomUUID()
                + "</RequestId></ResponseMetadata></" + action + "Response>";
        req.response().putHeader("content-type", "text/xml").end(xml);
    }

    private static void stsError(HttpServerRequest req, int status, String type, String code, String message) {
        req.response().setStatusCode(status).putHeader("content-type", "text/xml")
                .end("<ErrorResponse xmlns=\"" + STS_NS + "\"><Error><Type>" + type + "</Type><Code>" + code + "</Code><Message>"
                        + xml(message) + "</Message></Error><RequestId>" + UUID.randomUUID() + "</RequestId></ErrorResponse>");
    }

    /** DurationSeconds: 900 to 43200, one hour when absent; null when out of range. */
    private static Duration duration(Map<String, String> form) {
        String s = form.get("DurationSeconds");
        if (s == null) return Duration.ofHours(1);
        try {
            long seconds = Long.parseLong(s);
            return seconds >= 900 && seconds <= 43200 ? Duration.ofSeconds(seconds) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ container credentials (ECS, EKS Pod Identity)

    private void container(HttpServerRequest req) {
        count("container");
        if (!CONTAINER_TOKEN.equals(req.getHeader("authorization"))) {
            // what the EKS Pod Identity agent answers an unknown token with
            req.response().setStatusCode(401).putHeader("content-type", "application/json")
                    .end("{\"Code\":\"AccessDeniedException\",\"Message\":\"Unauthorized\"}");
            return;
        }
        AwsIdentities.Identity id = identities.issue("arn:aws:sts::123456789012:assumed-role/sim-task-role/container", PLATFORM_LIFETIME);
        ObjectNode body = Json.obj().put("RoleArn", "arn:aws:iam::123456789012:role/sim-task-role").put("AccessKeyId", id.accessKeyId())
                .put("SecretAccessKey", id.secretAccessKey()).put("Token", id.sessionToken()).put("Expiration", id.expiresAt().toString());
        req.response().putHeader("content-type", "application/json").end(Json.write(body));
    }

    // ------------------------------------------------------------------ instance metadata, IMDSv2

    private void imds(HttpServerRequest req, String path) {
        if (path.equals("/latest/api/token")) {
            String ttl = req.getHeader("x-aws-ec2-metadata-token-ttl-seconds");
            if (req.method() != HttpMethod.PUT || ttl == null || !ttl.matches("\\d{1,5}") || Integer.parseInt(ttl) < 1
                    || Integer.parseInt(ttl) > 21600) {
                req.response().setStatusCode(400).end();
                return;
            }
            String token = "sim-imds-" + UUID.randomUUID();
            imdsTokens.add(token);
            req.response().putHeader("content-type", "text/plain").putHeader("x-aws-ec2-metadata-token-ttl-seconds", ttl).end(token);
            return;
        }
        if (req.method() != HttpMethod.GET) {
            req.response().setStatusCode(405).end();
            return;
        }
        // IMDSv2 only, as "HttpTokens: required" instances are: no session token, 401
        String token = req.getHeader("x-aws-ec2-metadata-token");
        if (token == null || !imdsTokens.contains(token)) {
            req.response().setStatusCode(401).end();
            return;
        }
        if (path.equals(IMDS_CREDENTIALS)) {
            req.response().putHeader("content-type", "text/plain").end(INSTANCE_ROLE);
        } else if (path.equals(IMDS_CREDENTIALS + INSTANCE_ROLE)) {
            count("imds");
            AwsIdentities.Identity id = identities.issue("arn:aws:sts::123456789012:assumed-role/" + INSTANCE_ROLE + "/i-0sim", PLATFORM_LIFETIME);
            ObjectNode body = Json.obj().put("Code", "Success").put("LastUpdated", identities.clock().instant().toString())
                    .put("Type", "AWS-HMAC").put("AccessKeyId", id.accessKeyId()).put("SecretAccessKey", id.secretAccessKey())
                    .put("Token", id.sessionToken()).put("Expiration", id.expiresAt().toString());
            req.response().putHeader("content-type", "text/plain").end(Json.write(body));
        } else {
            req.response().setStatusCode(404).end();
        }
    }

    // ------------------------------------------------------------------ helpers

    private void count(String action) {
        calls.computeIfAbsent(action, k -> new AtomicInteger()).incrementAndGet();
    }

    /** The path as the caller sent it, still percent-encoded: what it signed. */
    private static String rawPath(HttpServerRequest req) {
        String uri = req.uri();
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return Collections.unmodifiableMap(out);
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
