package dev.modelgateway.config;


import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A provider's {@code aws} block (docs/clouds.md, "AWS credentials"): where its AWS credentials come from, and the
 * roles to assume from there, in order. Two providers with equal settings share one cached credential
 * ({@link AwsCredentialCache}). {@link #toString()} shows no secret.
 *
 * @param source               where the first credentials come from
 * @param accessKeyId          static keys ({@code source: static})
 * @param secretAccessKey      static keys
 * @param sessionToken         static temporary credentials; null for long-term keys
 * @param webIdentityTokenFile the OIDC token file ({@code source: web_identity}); null: {@code AWS_WEB_IDENTITY_TOKEN_FILE}
 * @param roleArn              the role the web identity assumes; null: {@code AWS_ROLE_ARN}
 * @param assumeRole           roles assumed one after the other from the source's credentials (role chaining)
 * @param stsEndpoint          STS's URL; null: the regional endpoint {@code https://sts.{region}.amazonaws.com}
 * @param containerEndpoint    the host {@code AWS_CONTAINER_CREDENTIALS_RELATIVE_URI} is resolved against; null:
 *                             ECS's {@code http://169.254.170.2}
 * @param imdsEndpoint         the instance metadata service; null: {@code http://169.254.169.254}
 * @param region               STS's region; null: the provider's ({@link #withRegion})
 */
public record AwsCredentialsSettings(Source source, String accessKeyId, String secretAccessKey, String sessionToken,
                                     String webIdentityTokenFile, String roleArn, List<AssumeRole> assumeRole,
                                     String stsEndpoint, String containerEndpoint, String imdsEndpoint, String region) {

    /** Where the first credentials of the chain come from, each through the AWS SDK's own provider. */
    public enum Source {
        STATIC, WEB_IDENTITY, CONTAINER, INSTANCE, DEFAULT;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One {@code sts:AssumeRole} of the chain.
     *
     * @param externalId      what the role's trust policy requires, if any ("How to use an external ID", IAM user guide)
     * @param sessionName     the role session's name, shown in CloudTrail; defaults to {@code model-gateway}
     * @param durationSeconds the session's length (900 to 43200; a chained role's at most 3600); null: STS's one hour
     */
    public record AssumeRole(String roleArn, String externalId, String sessionName, Integer durationSeconds) {
    }

    public static final String DEFAULT_SESSION_NAME = "model-gateway";
    private static final Set<String> KEYS = Set.of("source", "access_key_id", "secret_access_key", "session_token",
            "web_identity_token_file", "role_arn", "assume_role", "sts_endpoint", "container_endpoint", "imds_endpoint", "region");
    private static final Set<String> ROLE_KEYS = Set.of("role_arn", "external_id", "session_name", "duration_seconds");
    /** IAM role ARNs in the three partitions (IAM user guide, "IAM identifiers"); a role may have a path. */
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws(-cn|-us-gov)?:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");
    /** STS's patterns for ExternalId and RoleSessionName (STS API reference, AssumeRole). */
    private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");
    private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-\\d{1,2}");

    public AwsCredentialsSettings {
        assumeRole = assumeRole == null ? List.of() : List.copyOf(assumeRole);
    }

    /**
     * Reads {@code providers.<name>.aws}. Without {@code source}: {@code static} when keys are given, else
     * {@code default} (the AWS SDK's default chain).
     *
     * @param path where the block is, for the refusals ({@code providers.aws-east.aws})
     * @throws IllegalArgumentException naming the key, for an unknown key (with the nearest known one) or a bad value
     */
    public static AwsCredentialsSettings parse(String path, Map<String, Object> yaml) {
        for (String key : yaml.keySet()) if (!KEYS.contains(key)) throw UnknownSetting.of(path, key, KEYS);
        String accessKeyId = text(path, yaml, "access_key_id");
        String secret = text(path, yaml, "secret_access_key");
        String sourceText = text(path, yaml, "source");
        Source source = sourceText != null ? source(path, sourceText) : accessKeyId != null || secret != null ? Source.STATIC : Source.DEFAULT;
        String sessionToken = text(path, yaml, "session_token");
        String tokenFile = text(path, yaml, "web_identity_token_file");
        String roleArn = text(path, yaml, "role_arn");
        List<AssumeRole> chain = chain(path + ".assume_role", yaml.get("assume_role"));

        if (source == Source.STATIC) {
            if (accessKeyId == null || secret == null) {
                throw new IllegalArgumentException(path + ": source static needs both access_key_id and secret_access_key");
            }
        } else {
            onlyWith(path, "access_key_id", accessKeyId, "static");
            onlyWith(path, "secret_access_key", secret, "static");
            onlyWith(path, "session_token", sessionToken, "static");
        }
        if (source != Source.WEB_IDENTITY) {
            onlyWith(path, "web_identity_token_file", tokenFile, "web_identity");
            onlyWith(path, "role_arn", roleArn, "web_identity (a role to assume from other credentials goes in assume_role)");
        }
        if (roleArn != null) roleArn(path + ".role_arn", roleArn);
        String sts = url(path, yaml, "sts_endpoint");
        if (sts != null && !URI.create(sts).getRawPath().isEmpty()) {
            // the SDK's query protocol drops the path and posts to the root (aws-sdk-java-v2 issue 3387)
            throw new IllegalArgumentException(path + ".sts_endpoint must have no path (the AWS SDK calls STS at the host's root),"
                    + " such as https://sts.us-east-1.amazonaws.com");
        }
        if (sts != null && source != Source.WEB_IDENTITY && chain.isEmpty()) {
            throw new IllegalArgumentException(path + ".sts_endpoint: STS is called only for source web_identity or assume_role");
        }
        String container = url(path, yaml, "container_endpoint");
        if (source != Source.CONTAINER) onlyWith(path, "container_endpoint", container, "container");
        String imds = url(path, yaml, "imds_endpoint");
        if (source != Source.INSTANCE) onlyWith(path, "imds_endpoint", imds, "instance");
        String region = text(path, yaml, "region");
        if (region != null && !REGION.matcher(region).matches()) {
            throw new IllegalArgumentException(path + ".region must be an AWS region such as us-east-1, got '" + region + "'");
        }
        return new AwsCredentialsSettings(source, accessKeyId, secret, sessionToken, tokenFile, roleArn, chain, sts, container, imds, region);
    }

    /** These settings with STS in {@code providerRegion} unless the block names its own region. */
    public AwsCredentialsSettings withRegion(String providerRegion) {
        if (region != null || providerRegion == null) return this;
        return new AwsCredentialsSettings(source, accessKeyId, secretAccessKey, sessionToken, webIdentityTokenFile, roleArn,
                assumeRole, stsEndpoint, containerEndpoint, imdsEndpoint, providerRegion);
    }

    /** Whether fetching these credentials calls STS. */
    public boolean callsSts() {
        return source == Source.WEB_IDENTITY || !assumeRole.isEmpty();
    }

    /** The source and its role chain as an operator may read them: key ids and role ARNs, never a secret or an external id. */
    public String describe() {
        StringBuilder s = new StringBuilder("AWS ").append(source.id()).append(" credentials");
        if (source == Source.STATIC) s.append(" ").append(accessKeyId);
        if (roleArn != null) s.append(" for ").append(roleArn);
        for (AssumeRole r : assumeRole) s.append(" → ").append(r.roleArn()).append(r.externalId() != null ? " (external id)" : "");
        return s.toString();
    }

    @Override
    public String toString() {
        return "AwsCredentialsSettings[" + describe() + "]";
    }

    private static List<AssumeRole> chain(String path, Object value) {
        if (value == null) return List.of();
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(path + " must be a list of roles ({role_arn, external_id, session_name, duration_seconds}), in order");
        }
        List<AssumeRole> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String at = path + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) throw new IllegalArgumentException(at + " must be a mapping with role_arn");
            @SuppressWarnings("unchecked") Map<String, Object> role = (Map<String, Object>) m;
            for (String key : role.keySet()) if (!ROLE_KEYS.contains(key)) throw UnknownSetting.of(at, key, ROLE_KEYS);
            String arn = text(at, role, "role_arn");
            if (arn == null) throw new IllegalArgumentException(at + ".role_arn is required");
            roleArn(at + ".role_arn", arn);
            String externalId = text(at, role, "external_id");
            if (externalId != null && !EXTERNAL_ID.matcher(externalId).matches()) {
                throw new IllegalArgumentException(at + ".external_id must be 2 to 1224 characters of letters, digits and +=,.@:/-");
            }
            String sessionName = text(at, role, "session_name");
            if (sessionName != null && !SESSION_NAME.matcher(sessionName).matches()) {
                throw new IllegalArgumentException(at + ".session_name must be 2 to 64 characters of letters, digits and +=,.@-, got '" + sessionName + "'");
            }
            Integer duration = duration(at + ".duration_seconds", role.get("duration_seconds"));
            out.add(new AssumeRole(arn, externalId, sessionName, duration));
        }
        return out;
    }

    private static Integer duration(String at, Object value) {
        if (value == null) return null;
        int seconds;
        try {
            seconds = value instanceof Number n ? Math.toIntExact(n.longValue()) : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(at + " must be a number of seconds, got '" + value + "'");
        }
        if (seconds < 900 || seconds > 43200) {
            throw new IllegalArgumentException(at + " must be between 900 and 43200 (STS's limits), got " + seconds);
        }
        return seconds;
    }

    private static void roleArn(String at, String arn) {
        if (!ROLE_ARN.matcher(arn).matches()) {
            throw new IllegalArgumentException(at + " must be an IAM role ARN such as arn:aws:iam::123456789012:role/name, got '" + arn + "'");
        }
    }

    private static Source source(String path, String text) {
        for (Source s : Source.values()) if (s.id().equals(text)) return s;
        throw new IllegalArgumentException(path + ".source must be one of static, web_identity, container, instance, default; got '" + text + "'");
    }

    private static void onlyWith(String path, String key, String value, String source) {
        if (value != null) throw new IllegalArgumentException(path + "." + key + " applies to source " + source + " only");
    }

    private static String url(String path, Map<String, Object> yaml, String key) {
        String url = text(path, yaml, key);
        if (url == null) return null;
        try {
            URI uri = new URI(url);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null && uri.getRawQuery() == null
                    && uri.getUserInfo() == null) {
                return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
            }
        } catch (Exception e) {
            // refused below, naming the key
        }
        throw new IllegalArgumentException(path + "." + key + " must be an http(s) URL without a query, such as http://127.0.0.1:9090");
    }

    private static String text(String path, Map<String, Object> yaml, String key) {
        Object v = yaml.get(key);
        if (v == null) return null;
        if (v instanceof Map<?, ?> || v instanceof List<?>) throw new IllegalArgumentException(path + "." + key + " must be a single value");
        String s = v.toString().trim();
        if (s.isEmpty()) throw new IllegalArgumentException(path + "." + key + " is empty (an unset ${VARIABLE}?)");
        return s;
    }
}
