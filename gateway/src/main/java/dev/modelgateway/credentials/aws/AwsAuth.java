package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;

import java.util.Map;

/**
 * How a provider on AWS authenticates: an API key sent as a bearer token, or SigV4 with credentials from its
 * {@code aws} block. Bedrock API keys ("Use an Amazon Bedrock API key", Bedrock user guide) and Claude Platform on
 * AWS's workspace API keys ("Authentication", Claude Platform on AWS user guide) both go in
 * {@code Authorization: Bearer <key>}, in place of the signature; a provider has one or the other.
 */
public sealed interface AwsAuth {

    /** {@code Authorization: Bearer <key>}, no signature. */
    record ApiKey(String key) implements AwsAuth {
        public String authorization() {
            return "Bearer " + key;
        }

        @Override
        public String toString() {
            return "ApiKey[…]";
        }
    }

    /** SigV4 ({@link AwsSigning}) with the credential {@link AwsCredentialCache#credential} keeps for these settings. */
    record SigV4(AwsCredentialsSettings credentials) implements AwsAuth {
    }

    /**
     * The provider's choice: {@code api_key} alone → bearer; an {@code aws} block → SigV4; neither → SigV4 with the
     * AWS SDK's default chain (environment, profile, web identity, container, instance metadata), as AWS's own tools do.
     * Give SigV4's settings the provider's region with {@link AwsCredentialsSettings#withRegion} (STS is called there).
     *
     * @param path   the provider's path, for the refusal ({@code providers.aws-east})
     * @param apiKey the provider's {@code api_key}, or null
     * @param aws    its parsed {@code aws} block, or null
     * @throws IllegalArgumentException when both are given
     */
    static AwsAuth choose(String path, String apiKey, AwsCredentialsSettings aws) {
        if (apiKey != null && aws != null) {
            throw new IllegalArgumentException(path + ": api_key and aws are exclusive (an API key is sent as a bearer token"
                    + " instead of a SigV4 signature); keep one");
        }
        if (apiKey != null) return new ApiKey(apiKey);
        return new SigV4(aws != null ? aws : AwsCredentialsSettings.parse(path + ".aws", Map.of()));
    }
}
