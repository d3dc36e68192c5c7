package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Claude Platform on AWS (its user guide, "Making requests", docs.aws.amazon.com/claude-platform/latest/userguide/):
 * vendor A's own messages API ({@code /v1/messages}, {@code /v1/messages/count_tokens}) on an AWS host, mounted here at
 * {@code /claude-aws}. What it checks before vendor A's answer ({@link AnthropicApi}):
 * <ul>
 *   <li>SigV4 scoped to the signing service {@code aws-external-anthropic} ("IAM policies": "The SigV4 service name and
 *       IAM action namespace is aws-external-anthropic"), or a workspace API key as a bearer token ("Authentication");</li>
 *   <li>the {@code anthropic-workspace-id} header ("Workspaces": "Every data plane request must include the workspace
 *       ID"): missing → 400; a workspace the account has not got → 403, as IAM refuses {@code CreateInference} on the
 *       workspace ARN it is not granted.</li>
 * </ul>
 * The guide documents no error bodies, so the refusals are in vendor A's error shape (Anthropic operates the API),
 * with AWS's messages for the signature's.
 */
final class ClaudePlatformApi {
    static final String PREFIX = "/claude-aws";
    static final String SERVICE = "aws-external-anthropic";
    /** The workspace API key and workspace id the double accepts unless told others. */
    static final String API_KEY = "sim-claude-aws-api-key";
    static final String WORKSPACE = "wrkspc_01SimWorkspace";
    /** The account and region in the ARN of a refused workspace. */
    private static final String ACCOUNT = "123456789012";

    private final VendorSimulator sim;
    private final AnthropicApi anthropic;
    final BedrockSignatures signatures;
    final Set<String> workspaces = ConcurrentHashMap.newKeySet();

    ClaudePlatformApi(VendorSimulator sim, AnthropicApi anthropic, BedrockSignatures bedrock) {
        this.sim = sim;
        this.anthropic = anthropic;
        this.signatures = bedrock.forService(SERVICE, API_KEY);
        workspaces.add(WORKSPACE);
    }

    void handle(Exchange ex, String path, String body, Buffer raw) {
        ex.header("request-id", VendorErrors.requestId("req_sim_"));
        BedrockSignatures.Refusal refused = signatures.check(ex.req, raw);
        if (refused != null) {
            ex.fail(403, refused.message(), refused.type());
            return;
        }
        String workspace = ex.req.getHeader("anthropic-workspace-id");
        if (workspace == null || workspace.isBlank()) {
            ex.fail(400, "anthropic-workspace-id: header is required", null);
            return;
        }
        if (!workspaces.contains(workspace)) {
            String region = region(ex.req.getHeader("authorization"));
            ex.fail(403, "User is not authorized to perform: aws-external-anthropic:CreateInference on resource: arn:aws:"
                    + SERVICE + ":" + region + ":" + ACCOUNT + ":workspace/" + workspace, null);
            return;
        }
        boolean count = path.equals(PREFIX + "/v1/messages/count_tokens");
        if (!count && !path.equals(PREFIX + "/v1/messages")) {
            ex.fail(404, "Not found", null);
            return;
        }
        JsonNode root = Prelude.begin(sim, ex, body, null, model -> "model: " + model);
        if (root == null) return;
        // vendor A's own API: its betas in the anthropic-beta header
        if (AnthropicApi.refusedComputerUse(ex, root, ex.req.getHeader("anthropic-beta"))) return;
        anthropic.answer(ex, root, count);
    }

    /** The region of a SigV4 credential scope ({@code Credential=AKID/20261207/us-east-1/…}); a bearer key names none. */
    private static String region(String authorization) {
        if (authorization == null || !authorization.startsWith("AWS4-HMAC-SHA256")) return "us-east-1";
        String[] scope = authorization.substring(authorization.indexOf("Credential=") + "Credential=".length()).split("/");
        return scope.length > 2 ? scope[2] : "us-east-1";
    }
}
