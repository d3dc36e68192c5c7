package dev.modelgateway;

import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.RoutingConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The demo's cloud deployments (docs/clouds.md, "In demo mode"): two of vendor A's public models served through the
 * simulator's AWS Bedrock and Google Vertex AI doubles instead of vendor A's own API, so that the demo (and the
 * compatibility suite, which runs on it) shows a cloud deployment end to end: SigV4 for Bedrock, a service account's
 * OAuth tokens for Vertex. They go through the normal configuration path: a {@code providers}/{@code models} file in
 * the data directory, read by {@link ConfigLoader} as an operator's would be.
 */
final class DemoClouds {
    static final String BEDROCK_MODEL = "platform/vendorA-opus-4.8";
    /** A geo inference profile, as current vendor A models are invoked on Bedrock. */
    static final String BEDROCK_UPSTREAM = "us.anthropic.claude-opus-4-8-v1:0";
    static final String VERTEX_MODEL = "platform/vendorA-sonnet-4.8";
    static final String VERTEX_UPSTREAM = "claude-sonnet-4-8@20260101";
    static final String FILE = "demo-clouds.yaml";
    static final String SERVICE_ACCOUNT_FILE = "demo-vertex-sa.json";

    private DemoClouds() {
    }

    /**
     * Writes the configuration for a simulator at {@code simulatorUrl} into {@code dir} and reads it. The routing
     * carries no file: a reload must not read this file as the whole configuration (its vendors are the simulator's,
     * which the demo sets itself).
     */
    static RoutingConfig routing(Path dir, String simulatorUrl, DemoServiceAccount account) throws IOException {
        Path file = dir.resolve(FILE);
        Files.writeString(file, yaml(simulatorUrl, account.file()));
        // the environment is not consulted: this file is the demo's own, whatever serve's environment says
        return new ConfigLoader(name -> null).load(file).routing().withFile(null);
    }

    static String yaml(String simulatorUrl, Path serviceAccount) {
        return """
                # Written by ./gw demo at each start (docs/clouds.md, "In demo mode"): vendor A's models on the simulated clouds.
                providers:
                  demo-bedrock:
                    type: bedrock
                    region: us-east-1
                    base_url: %1$s
                    # the key pair the simulator's Bedrock double verifies SigV4 signatures with
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  demo-vertex:
                    type: vertex
                    project: sim-project
                    location: us-east5
                    base_url: %1$s
                    google: {source: service_account, credentials_file: "%2$s"}
                models:
                  %3$s:
                    deployments:
                      - provider: demo-bedrock
                        model: "%4$s"
                        api: invoke
                        capabilities: {prompt_cache: true, thinking: [adaptive, enabled]}
                  %5$s:
                    deployments:
                      - provider: demo-vertex
                        model: "%6$s"
                        capabilities: {prompt_cache: true, thinking: [adaptive, enabled]}
                """.formatted(simulatorUrl, serviceAccount, BEDROCK_MODEL, BEDROCK_UPSTREAM, VERTEX_MODEL, VERTEX_UPSTREAM);
    }
}
