package dev.modelgateway.upstream;

import dev.modelgateway.config.CloudAccount;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.credentials.CredentialHealth;
import dev.modelgateway.credentials.RefreshingCredential;
import dev.modelgateway.credentials.aws.AwsAuth;
import dev.modelgateway.credentials.aws.AwsCredentialCache;
import dev.modelgateway.credentials.aws.AwsSigning;
import dev.modelgateway.credentials.google.GoogleTokenCache;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URI;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The clouds' credentials on each call (docs/clouds.md, "Credentials"): the credential is had before a connection is
 * taken (from the one cache per identity, refreshed beside the event loop), then the request is signed (SigV4 over the
 * exact bytes and URI sent) or given its bearer token. Shared by every event loop's {@link VendorClients}.
 */
public final class CloudAuth {
    private final AwsCredentialCache aws;
    private final GoogleTokenCache google;
    private final InstantSource clock;

    public CloudAuth(Vertx vertx, InstantSource clock) {
        this.aws = new AwsCredentialCache(vertx, clock);
        this.google = new GoogleTokenCache(vertx, clock);
        this.clock = clock;
    }

    /** What one call carries: a bearer value, or AWS credentials to sign with. */
    sealed interface Credential {
        record Bearer(String token, RefreshingCredential<String> from) implements Credential {
        }

        record Aws(AwsCredentialsIdentity identity, String service, String region) implements Credential {
        }
    }

    /** The endpoint's credential, before its connection is taken; fails with 503 {@code credentials_unavailable}. */
    Future<Credential> credential(VendorEndpoint e) {
        CloudAccount account = e.cloud().account();
        return switch (e.type()) {
            case VERTEX -> {
                RefreshingCredential<String> token = google.credential(account.google());
                yield token.get().map(t -> new Credential.Bearer(t, token));
            }
            case BEDROCK, BEDROCK_OPENAI, ANTHROPIC_AWS -> switch (AwsAuth.choose("providers." + e.provider(), e.apiKey(), account.aws())) {
                case AwsAuth.ApiKey key -> Future.succeededFuture(new Credential.Bearer(key.key(), null));
                case AwsAuth.SigV4 sig -> aws.credential(sig.credentials().withRegion(account.region())).get()
                        .map(c -> new Credential.Aws(c, signingName(e), account.region()));
            };
            default -> throw new IllegalStateException("not a cloud: " + e.type());
        };
    }

    /** A token the vendor refused (Vertex's 401): one forced refresh shared by the calls that saw it refused. */
    Future<Credential> afterRejection(Credential.Bearer refused) {
        return refused.from().refreshAfterRejection(refused.token()).map(t -> new Credential.Bearer(t, refused.from()));
    }

    /**
     * Fetches the credentials of every cloud deployment of {@code endpoints} now, beside the event loops, so that a
     * source that cannot give them shows in the admin API before the first call needs it.
     */
    public void warm(java.util.Collection<VendorEndpoint> endpoints) {
        for (VendorEndpoint e : endpoints) if (e.cloud() != null) credential(e);
    }

    /** Why the deployment's credentials cannot be had now, or null when they can (or it needs none). */
    public String problem(VendorEndpoint e) {
        if (e.cloud() == null) return null;
        CredentialHealth h = health(e);
        return h.ready() ? null : h.problem();
    }

    /** The credential's health: what the admin API shows and what keeps routing away from a deployment. */
    public CredentialHealth health(VendorEndpoint e) {
        CloudAccount account = e.cloud().account();
        return switch (e.type()) {
            case VERTEX -> google.credential(account.google()).health();
            default -> AwsAuth.choose("providers." + e.provider(), e.apiKey(), account.aws()) instanceof AwsAuth.SigV4 sig
                    ? aws.credential(sig.credentials().withRegion(account.region())).health()
                    : new CredentialHealth(true, null, null);
        };
    }

    /**
     * Puts the credential on the request that is about to be sent: SigV4 signs the method, the URI as sent, every
     * header already set (the operator's and the caller's forwarded ones included) and the exact body bytes.
     */
    void apply(VendorEndpoint e, Credential c, String method, URI uri, MultiMap headers, Buffer body) {
        // Claude Platform on AWS bills each call to a workspace (its user guide, "Workspaces"): signed with the rest
        if (e.cloud().account().workspaceId() != null) headers.set("anthropic-workspace-id", e.cloud().account().workspaceId());
        switch (c) {
            case Credential.Bearer b -> headers.set("authorization", "Bearer " + b.token());
            case Credential.Aws a -> {
                Map<String, String> signed = new LinkedHashMap<>();
                headers.forEach(h -> signed.put(h.getKey(), h.getValue()));
                byte[] bytes = body == null ? new byte[0] : body.getBytes();
                new AwsSigning(a.region(), a.service()).sign(method, uri, signed, bytes, a.identity(), clock.instant())
                        .forEach(headers::set);
            }
        }
    }

    private static String signingName(VendorEndpoint e) {
        return switch (e.type()) {
            case ANTHROPIC_AWS -> AwsSigning.CLAUDE_PLATFORM;
            default -> AwsSigning.BEDROCK;
        };
    }
}
