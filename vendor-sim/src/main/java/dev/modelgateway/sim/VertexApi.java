package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;

import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google Vertex AI under {@code /v1/projects/{p}/locations/{l}/publishers/{anthropic|google}/models/{m}:{method}}
 * (also {@code v1beta1}): vendor A's models by {@code rawPredict} / {@code streamRawPredict} and the
 * {@code count-tokens:rawPredict} endpoint, answered by the simulator's vendor A (its prompt cache included); vendor C's
 * by {@code generateContent}, {@code streamGenerateContent}, {@code countTokens}, answered by its Gemini; text
 * embeddings by {@code :predict}. A Bearer access token is checked with the predicate given (the tokens the sim's
 * Google OAuth endpoint issued and that have not expired); the project and location in the path against the
 * simulator's. Errors of Vertex's front end are google.rpc Statuses; behind rawPredict the model's own are vendor A's.
 */
public final class VertexApi {
    /** The project the simulator serves. */
    public static final String PROJECT = "sim-project";
    /** The locations the simulator serves: regions where both publishers' models are offered, and the global endpoint. */
    public static final Set<String> LOCATIONS = Set.of("global", "us", "eu", "us-east5", "us-central1", "europe-west1",
            "europe-west4", "asia-southeast1");
    /** An access token the default predicate accepts (before the OAuth endpoint is wired). */
    public static final String STATIC_TOKEN = "sim-vertex-token";

    /** The only {@code anthropic_version} Vertex documents for vendor A's models (docs.claude.com, "Claude on Vertex AI"). */
    private static final String VERTEX_VERSION = "vertex-2023-10-16";
    /** vendor A's dated API versions, which its newest Vertex client copies into the body. */
    private static final Pattern DATED_VERSION = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern PATH = Pattern.compile(
            "/v1(?:beta1)?/projects/([^/]+)/locations/([^/]+)/publishers/([^/]+)/models/([^/:]+):([A-Za-z]+)");

    private final VendorSimulator sim;
    private final String project;
    private final Set<String> locations;
    private final Predicate<String> validTokens;
    private final AnthropicApi anthropic;
    private final GeminiApi gemini;

    /**
     * @param validTokens whether a Bearer access token is current (issued, not expired, not revoked)
     */
    public VertexApi(VendorSimulator sim, String project, Set<String> locations, Predicate<String> validTokens) {
        this.sim = sim;
        this.project = project;
        this.locations = Set.copyOf(locations);
        this.validTokens = validTokens;
        this.anthropic = new AnthropicApi(sim);
        this.gemini = new GeminiApi(sim);
    }

    /** Vertex's 401 for a missing, unknown or expired token (google.rpc UNAUTHENTICATED). */
    boolean authorized(HttpServerRequest req, Exchange ex) {
        String token = VendorSimulator.bearer(req.getHeader("authorization"));
        if (token != null && !token.isEmpty() && validTokens.test(token)) return true;
        ex.fail(401, "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
                + "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.", null);
        return false;
    }

    void handle(Exchange ex, String path, String body) {
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            ex.fail(404, "The requested URL " + path + " was not found on this server.", null);
            return;
        }
        String proj = m.group(1), location = m.group(2), publisher = m.group(3), model = m.group(4), method = m.group(5);
        String resource = "projects/" + proj + "/locations/" + location + "/publishers/" + publisher + "/models/" + model;
        if (!proj.equals(project)) {
            ex.fail(403, "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/" + resource
                    + "' (or it may not exist).", null);
            return;
        }
        if (!locations.contains(location) || model.contains("does-not-exist")) {
            ex.fail(404, "Publisher Model `" + resource + "` not found.", null);
            return;
        }
        switch (publisher + ":" + method) {
            case "anthropic:rawPredict", "anthropic:streamRawPredict" -> anthropic(ex, body, model, resource);
            case "google:generateContent", "google:streamGenerateContent", "google:countTokens" -> gemini.handle(ex, path, body);
            case "google:predict" -> predict(ex, body, model);
            default -> ex.fail(404, "Method " + method + " is not supported for " + resource + ".", null);
        }
    }

    /**
     * Vendor A's model behind rawPredict: the model comes from the path (the count endpoint's from the body), and
     * {@code anthropic_version} must be in the body. Vertex's own refusals (quota, access) are google.rpc Statuses;
     * what the model refuses is vendor A's error.
     */
    private void anthropic(Exchange ex, String body, String model, String resource) {
        ex.errors = (status, message, code) -> status == 401 || status == 403 || status == 404 || status == 429
                ? VendorErrors.gemini(status, status == 404 && message == null ? "Publisher Model `" + resource + "` not found." : message, code)
                : VendorErrors.anthropic(status, message, code);
        ex.header("request-id", VendorErrors.requestId("req_vrtx_"));
        boolean count = model.equals("count-tokens");
        JsonNode root = Prelude.begin(sim, ex, body, count ? null : model, m -> "Publisher Model `" + resource + "` not found.");
        if (root == null) return;
        // Google's count-tokens example sends no version; a message must carry one
        JsonNode version = root.get("anthropic_version");
        if (version == null ? !count : !(VERTEX_VERSION.equals(version.asText()) || DATED_VERSION.matcher(version.asText()).matches())) {
            ex.fail(400, "anthropic_version: Input should be '" + VERTEX_VERSION + "'", null);
            return;
        }
        if (!count && root.has("model")) {
            // Vertex takes the model from the URL; the body must not name one (docs.claude.com, "Claude on Vertex AI")
            ex.fail(400, "model: Extra inputs are not permitted", null);
            return;
        }
        if (count && !root.hasNonNull("model")) {
            ex.fail(400, "model: Field required", null);
            return;
        }
        // Vertex takes vendor A's betas in the anthropic-beta header (docs.claude.com, "Claude on Vertex AI")
        if (AnthropicApi.refusedComputerUse(ex, root, ex.req.getHeader("anthropic-beta"))) return;
        ObjectNode request = ((ObjectNode) root).deepCopy();
        request.remove("anthropic_version");
        if (!count) request.put("model", model);
        anthropic.answer(ex, request, count);
    }

    /**
     * Text embeddings ({@code predictions[].embeddings.values} and {@code statistics.token_count}), or an Imagen
     * upscale when the instances carry an image.
     */
    private void predict(Exchange ex, String body, String model) {
        JsonNode root = Prelude.begin(sim, ex, body, model, m -> "Publisher Model `" + m + "` not found.");
        if (root == null) return;
        JsonNode instances = root.path("instances");
        if (instances.size() > 0 && instances.get(0).has("image")) {
            ImagenUpscale.handle(ex, root);
            return;
        }
        if (instances.isEmpty()) {
            ex.fail(400, "Request contains an invalid argument: instances is empty.", null);
            return;
        }
        if (model.startsWith("gemini-embedding") && instances.size() > 1) {
            // Google's text embeddings reference: gemini-embedding-001 supports one instance per request
            ex.fail(400, "Unable to submit request because the model supports only 1 instance per request.", null);
            return;
        }
        int dims = root.path("parameters").path("outputDimensionality").asInt(model.startsWith("gemini-embedding") ? 3072 : 768);
        ObjectNode out = Json.obj();
        ArrayNode predictions = out.putArray("predictions");
        long characters = 0;
        for (JsonNode instance : instances) {
            String content = instance.path("content").asText("");
            characters += content.length();
            ObjectNode embeddings = predictions.addObject().putObject("embeddings");
            embeddings.putObject("statistics").put("truncated", false).put("token_count", Tokens.of(content));
            ArrayNode values = embeddings.putArray("values");
            for (float v : Embeddings.vector(model + "|" + content, dims)) values.add(v);
        }
        out.putObject("metadata").put("billableCharacterCount", characters);
        ex.ok(Json.write(out));
    }
}
