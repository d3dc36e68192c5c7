package dev.modelgateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.UUID;

/**
 * The demo's Google service account: a key file in the shape Google's console downloads
 * (cloud.google.com/iam/docs/keys-create-delete), with an RSA key made at each demo start, whose {@code token_uri} is
 * the simulator's token endpoint. The demo's {@code vertex} provider reads it as any operator's key file
 * ({@code google.source: service_account}); the simulator trusts its public half.
 *
 * @param file        the key file
 * @param clientEmail the account, {@code demo-gateway@sim-project.iam.gserviceaccount.com}
 * @param publicKey   what the token endpoint checks the gateway's signed assertions with
 */
record DemoServiceAccount(Path file, String clientEmail, RSAPublicKey publicKey) {
    static final String CLIENT_EMAIL = "demo-gateway@sim-project.iam.gserviceaccount.com";

    /** Writes {@code dir/name} (owner-only where the file system has POSIX permissions: it holds a private key). */
    static DemoServiceAccount create(Path dir, String name, String tokenUri) throws IOException {
        KeyPair keys = rsa();
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        ObjectNode json = Json.MAPPER.createObjectNode().put("type", "service_account").put("project_id", "sim-project")
                .put("private_key_id", UUID.randomUUID().toString().replace("-", "")).put("private_key", pem).put("client_email", CLIENT_EMAIL)
                .put("client_id", "100000000000000000001").put("token_uri", tokenUri);
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(file, json.toString());
        return new DemoServiceAccount(file, CLIENT_EMAIL, (RSAPublicKey) keys.getPublic());
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
}
