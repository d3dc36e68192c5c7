package dev.modelgateway.wire.vertex;

import java.util.regex.Pattern;

/**
 * One Google Cloud project's Vertex AI location: its default host and the resource paths of the publishers' models
 * in it. Model ids are put in the path as Vertex names them, {@code @} versions included
 * ({@code claude-sonnet-4@20250514}): RFC 3986 allows {@code @} in a path segment, and both official clients (Anthropic's
 * {@code VertexBackend}, Google's Gen AI SDK) send it unescaped (tested in {@code VertexAnthropicOracleTest}).
 *
 * @param project  the project id (a domain-scoped {@code example.com:proj} too)
 * @param location a region ({@code us-east5}), a multi-region ({@code us}, {@code eu}) or {@code global}
 */
public record VertexLocation(String project, String location) {
    /** Project ids: lower-case letters, digits, hyphens; a domain-scoped id adds {@code domain:} before them. */
    private static final Pattern PROJECT = Pattern.compile("([a-z0-9][a-z0-9.-]*:)?[a-z][a-z0-9-]{4,28}[a-z0-9]");
    private static final Pattern LOCATION = Pattern.compile("[a-z][a-z0-9-]*[a-z0-9]");
    /** What a model id may hold in a path segment: nothing that would end it ({@code /}, {@code ?}, {@code #}) or escape. */
    private static final Pattern MODEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]*");

    public VertexLocation {
        if (project == null || !PROJECT.matcher(project).matches()) {
            throw new IllegalArgumentException("project: '" + project + "' is not a Google Cloud project id (lower-case letters, digits and hyphens, 6 to 30 characters)");
        }
        if (location == null || !LOCATION.matcher(location).matches()) {
            throw new IllegalArgumentException("location: '" + location + "' is not a Vertex AI location (a region such as us-east5, us, eu or global)");
        }
    }

    /**
     * The host serving this location when the provider names no {@code base_url}: {@code global} has no location
     * prefix (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations, "Global endpoint"); the
     * multi-regions {@code us} and {@code eu} are served on {@code aiplatform.{mr}.rep.googleapis.com}, as both
     * official clients resolve them; a region on {@code {region}-aiplatform.googleapis.com}.
     */
    public String defaultBaseUrl() {
        return switch (location) {
            case "global" -> "https://aiplatform.googleapis.com";
            case "us", "eu" -> "https://aiplatform." + location + ".rep.googleapis.com";
            default -> "https://" + location + "-aiplatform.googleapis.com";
        };
    }

    /** {@code /v1/projects/{project}/locations/{location}}: the prefix of every path here. */
    public String resourcePrefix() {
        return "/v1/projects/" + project + "/locations/" + location;
    }

    /** {@code /v1/projects/{p}/locations/{l}/publishers/{publisher}/models/{model}:{method}}. */
    public String modelPath(String publisher, String model, String method) {
        return resourcePrefix() + "/publishers/" + publisher + "/models/" + checkedModel(model) + ":" + method;
    }

    /** Vendor A's model: {@code :rawPredict}, or {@code :streamRawPredict} for a streamed call. */
    public String anthropicPath(String model, boolean stream) {
        return modelPath("anthropic", model, stream ? "streamRawPredict" : "rawPredict");
    }

    /**
     * Vendor A's token count: one endpoint for every model, {@code count-tokens:rawPredict}, the model named in the
     * body (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens).
     */
    public String anthropicCountTokensPath() {
        return resourcePrefix() + "/publishers/anthropic/models/count-tokens:rawPredict";
    }

    /** Vendor C's or Google's model: {@code :generateContent}, {@code :streamGenerateContent?alt=sse}, {@code :countTokens}, {@code :predict}. */
    public String googlePath(String model, String method) {
        return modelPath("google", model, method);
    }

    /** The resource name Vertex's errors and logs use: {@code projects/{p}/locations/{l}/publishers/{pub}/models/{m}}. */
    public String modelName(String publisher, String model) {
        return "projects/" + project + "/locations/" + location + "/publishers/" + publisher + "/models/" + model;
    }

    /**
     * The model id as a path segment, unchanged.
     *
     * @throws IllegalArgumentException when it holds a character that would end or escape the segment (a
     *                                  configuration mistake: model ids come from the deployments, not callers)
     */
    public static String checkedModel(String model) {
        if (model == null || !MODEL.matcher(model).matches()) {
            throw new IllegalArgumentException("model: '" + model + "' is not a Vertex AI model id (letters, digits, '.', '_', '-', '@')");
        }
        return model;
    }
}
