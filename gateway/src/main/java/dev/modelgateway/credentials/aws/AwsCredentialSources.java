package dev.modelgateway.credentials.aws;

import dev.modelgateway.config.AwsCredentialsSettings;
import dev.modelgateway.credentials.CredentialSource;
import dev.modelgateway.credentials.Expiring;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.utils.SdkAutoCloseable;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link CredentialSource} of an {@code aws} block, built from the AWS SDK for Java v2's own credential providers
 * (docs/clouds.md, "AWS credentials"): {@code StaticCredentialsProvider}, {@code StsWebIdentityTokenFileCredentialsProvider}
 * (IRSA and any OIDC token file), {@code ContainerCredentialsProvider} (ECS and EKS Pod Identity),
 * {@code InstanceProfileCredentialsProvider} (IMDSv2), {@code DefaultCredentialsProvider}, and one
 * {@code StsAssumeRoleCredentialsProvider} per role of the chain, each signing its AssumeRole with the previous link.
 *
 * <p>Each fetch builds these providers afresh (and the STS client, on the JDK's HTTP client: no Apache, no Netty),
 * resolves once and closes them. The SDK's providers cache what they fetch ({@code CachedSupplier}) and, when a
 * refresh fails while the old value is not yet stale, hand back the old value without a word; built per fetch
 * (and with {@code asyncCredentialUpdateEnabled(false)}: no background thread), they never hold a value across two
 * of our fetches, so {@code RefreshingCredential} alone decides when to refresh and a failure reaches its health.
 * A fetch happens about once per credential lifetime, so building them costs nothing that matters.
 */
public final class AwsCredentialSources {
    /** STS's global endpoint's region, when neither the block nor its provider names one. */
    private static final String STS_DEFAULT_REGION = "us-east-1";

    private AwsCredentialSources() {
    }

    public static CredentialSource<AwsCredentials> of(AwsCredentialsSettings settings) {
        return new CredentialSource<>() {
            @Override
            public Expiring<AwsCredentials> fetch() {
                return AwsCredentialSources.fetch(settings);
            }

            @Override
            public String describe() {
                return settings.describe();
            }
        };
    }

    /** Blocking: STS, a metadata endpoint or a file. Runs on a worker thread. */
    private static Expiring<AwsCredentials> fetch(AwsCredentialsSettings s) {
        List<SdkAutoCloseable> opened = new ArrayList<>();
        try (StsClient sts = s.callsSts() ? sts(s) : null) {
            AwsCredentialsProvider link = first(s, sts, opened);
            for (AwsCredentialsSettings.AssumeRole role : s.assumeRole()) link = assume(sts, link, role, opened);
            AwsCredentials credentials = link.resolveCredentials();
            return new Expiring<>(credentials, credentials.expirationTime().orElse(null));
        } finally {
            for (SdkAutoCloseable c : opened) c.close();
        }
    }

    private static AwsCredentialsProvider first(AwsCredentialsSettings s, StsClient sts, List<SdkAutoCloseable> opened) {
        return switch (s.source()) {
            case STATIC -> StaticCredentialsProvider.create(s.sessionToken() == null
                    ? AwsBasicCredentials.create(s.accessKeyId(), s.secretAccessKey())
                    : AwsSessionCredentials.create(s.accessKeyId(), s.secretAccessKey(), s.sessionToken()));
            // unset file and role: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN, as EKS (IRSA) sets them; the file is
            // read at each fetch, since the platform rotates the token
            case WEB_IDENTITY -> opened(opened, StsWebIdentityTokenFileCredentialsProvider.builder().stsClient(sts)
                    .asyncCredentialUpdateEnabled(false)
                    .webIdentityTokenFile(s.webIdentityTokenFile() == null ? null : Path.of(s.webIdentityTokenFile()))
                    .roleArn(s.roleArn())
                    .roleSessionName(AwsCredentialsSettings.DEFAULT_SESSION_NAME)
                    .build());
            // the URI and the authorization token (file) come from AWS_CONTAINER_CREDENTIALS_FULL_URI or _RELATIVE_URI and
            // AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE), which ECS and EKS Pod Identity set; the SDK reads only those
            case CONTAINER -> opened(opened, ContainerCredentialsProvider.builder().asyncCredentialUpdateEnabled(false)
                    .endpoint(s.containerEndpoint()).build());
            case INSTANCE -> opened(opened, InstanceProfileCredentialsProvider.builder().asyncCredentialUpdateEnabled(false)
                    .endpoint(s.imdsEndpoint()).build());
            case DEFAULT -> opened(opened, DefaultCredentialsProvider.builder().asyncCredentialUpdateEnabled(false).build());
        };
    }

    /** One role of the chain: AssumeRole signed with the previous link's credentials (the request's own, not the client's). */
    private static AwsCredentialsProvider assume(StsClient sts, AwsCredentialsProvider previous, AwsCredentialsSettings.AssumeRole role,
                                                 List<SdkAutoCloseable> opened) {
        AssumeRoleRequest request = AssumeRoleRequest.builder()
                .roleArn(role.roleArn())
                .externalId(role.externalId())
                .roleSessionName(role.sessionName() != null ? role.sessionName() : AwsCredentialsSettings.DEFAULT_SESSION_NAME)
                .durationSeconds(role.durationSeconds())
                .overrideConfiguration(o -> o.credentialsProvider(previous))
                .build();
        return opened(opened, StsAssumeRoleCredentialsProvider.builder().stsClient(sts).asyncCredentialUpdateEnabled(false)
                .refreshRequest(request).build());
    }

    private static StsClient sts(AwsCredentialsSettings s) {
        StsClientBuilder b = StsClient.builder()
                .region(Region.of(s.region() != null ? s.region() : STS_DEFAULT_REGION))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                // every call brings its own credentials (AssumeRole) or needs none (AssumeRoleWithWebIdentity)
                .credentialsProvider(AnonymousCredentialsProvider.create());
        if (s.stsEndpoint() != null) b.endpointOverride(URI.create(s.stsEndpoint()));
        return b.build();
    }

    private static <T extends AwsCredentialsProvider & SdkAutoCloseable> T opened(List<SdkAutoCloseable> opened, T provider) {
        opened.add(provider);
        return provider;
    }
}
