package dev.modelgateway.config;

/**
 * Where a cloud provider's calls go and whose credentials sign them (docs/clouds.md): a {@code bedrock},
 * {@code bedrock-openai} or {@code anthropic-aws} provider's AWS region and credentials, a {@code vertex} provider's
 * project, location and Google credentials.
 *
 * @param aws         the provider's {@code aws} block (null: a Bedrock API key, or AWS's default chain)
 * @param google      the provider's {@code google} block (application default credentials when it has none)
 * @param workspaceId Claude Platform on AWS's workspace, sent with each call; null elsewhere
 */
public record CloudAccount(String region, String project, String location, AwsCredentialsSettings aws,
                           GoogleCredentialsSettings google, String workspaceId) {
    /** The service's own host when the operator names none. */
    public String defaultBaseUrl(ProviderType type) {
        return switch (type) {
            // docs.aws.amazon.com/general/latest/gr/bedrock.html, "Amazon Bedrock Runtime endpoints"
            case BEDROCK -> "https://bedrock-runtime." + region + ".amazonaws.com";
            // docs.aws.amazon.com/bedrock, "OpenAI-compatible endpoints" (Chat Completions and Responses under /openai/v1)
            case BEDROCK_OPENAI -> "https://bedrock-runtime." + region + ".amazonaws.com/openai/v1";
            // docs.aws.amazon.com/claude-platform/latest/userguide/making-requests.html
            case ANTHROPIC_AWS -> "https://aws-external-anthropic." + region + ".api.aws";
            // cloud.google.com/vertex-ai/docs/reference/rest: regional hosts, and the global endpoint without a prefix
            // and the multi-regions us and eu on their own hosts, as both official clients resolve them
            case VERTEX -> switch (location) {
                case "global" -> "https://aiplatform.googleapis.com";
                case "us", "eu" -> "https://aiplatform." + location + ".rep.googleapis.com";
                default -> "https://" + location + "-aiplatform.googleapis.com";
            };
            default -> null;
        };
    }
}
