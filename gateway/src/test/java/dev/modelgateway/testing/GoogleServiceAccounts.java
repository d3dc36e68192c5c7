package dev.modelgateway.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * Google identities for tests, each with a freshly generated RSA key: a service-account key file as Google's console
 * downloads it (cloud.google.com/iam/docs/keys-create-delete), and a workload identity pool's external_account file
 * with the OIDC token it reads from a file (cloud.google.com/iam/docs/workload-identity-federation-with-other-providers).
 * The simulator is told to trust them ({@code sim.googleOAuth().trustServiceAccount(...)}); the files are written to
 * the test's temporary directory.
 */
public final class GoogleServiceAccounts {
    private GoogleServiceAccounts() {
    }

    /** A service-account key file and the public half of its key, which Google (the simulator) checks assertions with. */
    public record ServiceAccount(Path file, String clientEmail, RSAPublicKey publicKey, String privateKeyPem) {
    }

    /**
     * An external_account file of a workload identity pool's OIDC provider, and the identity provider's signed token
     * in {@code subjectTokenFile}, which the library reads at each exchange.
     */
    public record IdentityPool(Path file, Path subjectTokenFile, String audience, String issuer, RSAPublicKey issuerKey) {
    }

    /** A service account {@code name}@sim-project whose key file's {@code token_uri} is {@code tokenUri}. */
    public static ServiceAccount create(Path dir, String name, String tokenUri) {
        KeyPair keys = rsa();
        String email = name + "@sim-project.iam.gserviceaccount.com";
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        ObjectNode json = Json.MAPPER.createObjectNode().put("type", "service_account").put("project_id", "sim-project")
                .put("private_key_id", UUID.randomUUID().toString().replace("-", "")).put("private_key", pem)
                .put("client_email", email).put("client_id", "1" + Math.abs(email.hashCode()))
                .put("auth_uri", "https://accounts.google.com/o/oauth2/auth").put("token_uri", tokenUri);
        return new ServiceAccount(write(dir.resolve(name + ".json"), json.toString()), email,
                (RSAPublicKey) keys.getPublic(), pem);
    }

    /**
     * A pool provider {@code pool} whose external_account file names Google's STS (as a real one does) and a subject
     * token valid for an hour from now, issued by {@code https://issuer.example/<pool>} to {@code subject}.
     */
    public static IdentityPool identityPool(Path dir, String pool, String subject) {
        KeyPair keys = rsa();
        String audience = "//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/" + pool + "/providers/oidc";
        String issuer = "https://issuer.example/" + pool;
        long now = Instant.now().getEpochSecond();
        ObjectNode claims = Json.MAPPER.createObjectNode().put("iss", issuer).put("sub", subject).put("aud", "https:" + audience)
                .put("iat", now).put("exp", now + 3600);
        Path token = write(dir.resolve(pool + "-token.jwt"), rs256(claims, keys.getPrivate()));
        ObjectNode json = Json.MAPPER.createObjectNode().put("type", "external_account").put("audience", audience)
                .put("subject_token_type", "urn:ietf:params:oauth:token-type:jwt")
                .put("token_url", "https://sts.googleapis.com/v1/token");
        json.putObject("credential_source").put("file", token.toString());
        return new IdentityPool(write(dir.resolve(pool + ".json"), json.toString()), token, audience, issuer,
                (RSAPublicKey) keys.getPublic());
    }

    /** A compact JWS, RS256 (RFC 7515, 7518 §3.3). */
    private static String rs256(ObjectNode claims, PrivateKey key) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String input = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key);
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + b64.encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path write(Path file, String text) {
        try {
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
