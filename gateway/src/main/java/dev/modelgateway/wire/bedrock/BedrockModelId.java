package dev.modelgateway.wire.bedrock;

import dev.modelgateway.config.Capabilities;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Bedrock deployment's model id, classified (Bedrock User Guide, "Supported foundation models", "Inference
 * profiles", "Provisioned Throughput", "Custom models"):
 * <ul>
 *   <li>a foundation model id, {@code anthropic.claude-sonnet-4-5-20250929-v1:0} ({@link Kind#FOUNDATION_MODEL});</li>
 *   <li>a system-defined inference profile id: a geography or {@code global.} before a foundation model id,
 *       {@code us.anthropic.…}, {@code eu.}, {@code apac.}, {@code jp.}, {@code us-gov.} … ({@link Kind#INFERENCE_PROFILE});</li>
 *   <li>an ARN ({@code arn:<partition>:bedrock:<region>:<account>:<resource-type>/<id>}) of a foundation model, a system
 *       or application inference profile, a provisioned model, or a custom or imported model.</li>
 * </ul>
 * Whether the model is vendor A's is read from the id only where the id is AWS's own model id (a foundation model, a
 * system profile, and their ARNs); an application profile, provisioned or custom model's ARN says nothing of its
 * model, so only the deployment's declared {@code base_model} does ({@link Capabilities#baseModel}), never a guess
 * from a name.
 *
 * @param id              the id as configured
 * @param foundationModel AWS's id of the model behind it ({@code anthropic.claude-…}) when the id tells it, else null
 * @param region          the ARN's region, null for an id
 */
public record BedrockModelId(String id, Kind kind, String foundationModel, String region) {
    public enum Kind {
        FOUNDATION_MODEL, INFERENCE_PROFILE, FOUNDATION_MODEL_ARN, SYSTEM_PROFILE_ARN, APPLICATION_PROFILE_ARN,
        PROVISIONED_MODEL_ARN, CUSTOM_MODEL_ARN
    }

    /** {@code provider.model[:version]}: the provider a name of letters and digits, no dot after it before the version. */
    private static final Pattern FOUNDATION = Pattern.compile("[a-z][a-z0-9-]*\\.[A-Za-z0-9][A-Za-z0-9._:-]*");
    /**
     * A system profile's prefix: {@code global} or a geography of 2 to 4 letters with an optional qualifier
     * ({@code us}, {@code eu}, {@code apac}, {@code jp}, {@code au}, {@code us-gov}), before a foundation model id.
     */
    private static final Pattern PROFILE = Pattern.compile("(global|[a-z]{2,4}(?:-[a-z]{2,4})?)\\.([a-z][a-z0-9-]*\\..+)");
    private static final Pattern ARN = Pattern.compile("arn:(aws[a-z-]*):bedrock:([a-z0-9-]*):([0-9]*):([a-z-]+)/(.+)");
    private static final String VENDOR_A = "anthropic.";

    /** @throws IllegalArgumentException when the id is none of Bedrock's forms (the message says which are) */
    public static BedrockModelId parse(String id) {
        if (id == null || id.isBlank()) throw new IllegalArgumentException("a Bedrock model id is required");
        Matcher arn = ARN.matcher(id);
        if (arn.matches()) {
            String region = arn.group(2), resource = arn.group(4), rest = arn.group(5);
            return switch (resource) {
                case "foundation-model" -> new BedrockModelId(id, Kind.FOUNDATION_MODEL_ARN, rest, region);
                case "inference-profile" -> new BedrockModelId(id, Kind.SYSTEM_PROFILE_ARN, profileModel(rest), region);
                case "application-inference-profile" -> new BedrockModelId(id, Kind.APPLICATION_PROFILE_ARN, null, region);
                case "provisioned-model" -> new BedrockModelId(id, Kind.PROVISIONED_MODEL_ARN, null, region);
                case "custom-model", "custom-model-deployment", "imported-model" ->
                        new BedrockModelId(id, Kind.CUSTOM_MODEL_ARN, null, region);
                default -> throw new IllegalArgumentException("the Bedrock ARN '" + id + "' names a " + resource
                        + "; a model is a foundation-model, inference-profile, application-inference-profile, provisioned-model,"
                        + " custom-model, custom-model-deployment or imported-model");
            };
        }
        if (id.startsWith("arn:")) throw new IllegalArgumentException("'" + id + "' is not a Bedrock ARN (arn:aws:bedrock:<region>:<account>:<type>/<id>)");
        String profileModel = profileModel(id);
        if (profileModel != null) return new BedrockModelId(id, Kind.INFERENCE_PROFILE, profileModel, null);
        if (FOUNDATION.matcher(id).matches()) return new BedrockModelId(id, Kind.FOUNDATION_MODEL, id, null);
        throw new IllegalArgumentException("'" + id + "' is not a Bedrock model id (provider.model-version, a profile"
                + " such as us.provider.model-version, or an ARN)");
    }

    /** The foundation model inside a system profile id ({@code us.anthropic.x} → {@code anthropic.x}); null when it is none. */
    private static String profileModel(String id) {
        Matcher m = PROFILE.matcher(id);
        return m.matches() && FOUNDATION.matcher(m.group(2)).matches() ? m.group(2) : null;
    }

    /** True for an ARN. */
    public boolean isArn() {
        return kind != Kind.FOUNDATION_MODEL && kind != Kind.INFERENCE_PROFILE;
    }

    /**
     * Whether vendor A's model serves it: from the id where it is AWS's model id, otherwise from the declared
     * {@code base_model} alone (false without one).
     */
    public boolean isVendorA(Capabilities declared) {
        String base = foundationModel != null ? foundationModel : declared == null ? null : declared.baseModel();
        if (base == null) return false;
        String model = foundationModel != null ? base : parseQuietly(base);
        return model != null && model.startsWith(VENDOR_A);
    }

    /** The foundation model a declared {@code base_model} names (a plain id, a profile or an ARN that tells it). */
    private static String parseQuietly(String base) {
        try {
            return parse(base).foundationModel();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The id as one segment of the request path, encoded as the AWS SDK for Java v2 encodes a path label
     * ({@code SdkHttpUtils.urlEncode}: RFC 3986 unreserved characters kept, every other UTF-8 byte {@code %XX}), so
     * {@code :} is {@code %3A} and an ARN's {@code /} is {@code %2F} (BedrockModelIdTest compares with the SDK's
     * requests). SigV4's canonical URI encodes this path once more (AWS docs, "Create a canonical request": every
     * service but S3).
     */
    public String pathSegment() {
        return encode(id);
    }

    /**
     * {@link #pathSegment} of any id, valid or not: a request is built for what the operator configured, and Bedrock
     * answers an id it does not know with its own 400, which is relayed.
     */
    public static String pathSegment(String id) {
        return encode(id);
    }

    static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /**
     * The inference profile ids to configure for a foundation model Bedrock serves only through a profile, given the
     * deployment's region (AWS docs, "Supported Regions and models for inference profiles": {@code us.} in US
     * regions, {@code us-gov.} in GovCloud, {@code eu.} in Europe, {@code apac.} in Asia Pacific; {@code global.}
     * for the models AWS routes worldwide).
     */
    public static String suggestedProfiles(String model, String region) {
        String geo = region == null ? null
                : region.startsWith("us-gov-") ? "us-gov"
                : region.startsWith("us-") ? "us"
                : region.startsWith("eu-") ? "eu"
                : region.startsWith("ap-") ? "apac"
                : null;
        return geo == null
                ? "'us." + model + "', 'eu." + model + "' or 'apac." + model + "' (the one of the deployment's region), or 'global." + model + "'"
                : "'" + geo + "." + model + "' (or 'global." + model + "' where AWS offers it)";
    }
}
