package dev.modelgateway.e2e.console;

import dev.modelgateway.server.FreePort;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real OpenID provider on loopback for the sign-in tests: the certified {@code oidc-provider} npm package run by
 * gateway/src/test/oidc-provider/run.sh (which installs it), with the people alice (gw-admins), bob (team-a-admins),
 * carol (gw-viewers), dave (no group) and erin (team-a-members), each with the password {@code <name>-password}. Its client is
 * {@code gateway} / {@code gateway-secret}. Tests skip, saying why, when node is missing.
 */
final class OidcTestProvider implements AutoCloseable {
    static final String CLIENT_ID = "gateway";
    static final String CLIENT_SECRET = "gateway-secret";

    final String issuer;
    private final Process process;
    private final HttpClient http = HttpClient.newHttpClient();

    private OidcTestProvider(String issuer, Process process) {
        this.issuer = issuer;
        this.process = process;
    }

    /** Starts it for a gateway at {@code publicUrl} whose provider is named {@code providerId}. */
    static OidcTestProvider start(String publicUrl, String providerId) {
        assumeTrue(onPath("node") && onPath("npm"), "node and npm are needed to run the test OpenID provider");
        Path script = Path.of("src/test/oidc-provider/run.sh");
        if (!Files.exists(script)) script = Path.of("gateway/src/test/oidc-provider/run.sh");
        int port = FreePort.pick();
        Process p;
        try {
            p = new ProcessBuilder("bash", script.toString(), "--port", String.valueOf(port),
                    "--redirect", publicUrl + "/auth/oidc/" + providerId + "/callback", "--post-logout", publicUrl + "/console/")
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // its own thread reads the output (a shared pool's could be taken by another provider's reader for good),
        // first up to the ready line, then drained so that the provider never blocks on a full pipe
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("oidc-provider-" + providerId).start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("ready ")) ready.complete(line.substring(6).trim());
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.complete(null);
        });
        try {
            String issuer = ready.get(300, TimeUnit.SECONDS);
            if (issuer == null) throw new IllegalStateException("the test OpenID provider exited: " + p.waitFor());
            return new OidcTestProvider(issuer, p);
        } catch (Exception e) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            throw new IllegalStateException("the test OpenID provider did not start", e);
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }

    /** Replaces the provider's signing key with a new one (a new kid): its ID tokens are signed with that from now on. */
    void rotateKey() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(issuer + "/test/rotate"))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 204) throw new IllegalStateException("rotation answered " + r.statusCode());
    }

    /** The gateway's {@code identity} section for this provider, with the tests' role mappings. */
    String identityYaml(String providerId, String teamA) {
        return "identity:\n"
                + "  sign_in:\n"
                + "    providers:\n"
                + "      " + providerId + ":\n"
                + "        issuer: " + issuer + "\n"
                + "        client_id: " + CLIENT_ID + "\n"
                + "        client_secret: " + CLIENT_SECRET + "\n"
                + "        display_name: Test IdP\n"
                + "  role_mappings:\n"
                + "    - {provider: " + providerId + ", claim: groups, equals: gw-admins, role: org_admin}\n"
                + "    - {provider: " + providerId + ", claim: groups, equals: team-a-admins, role: team_admin, team: " + teamA + "}\n"
                + "    - {provider: " + providerId + ", claim: groups, equals: gw-viewers, role: viewer}\n"
                + "    - {provider: " + providerId + ", claim: groups, equals: team-a-members, role: member, team: " + teamA + "}\n";
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
