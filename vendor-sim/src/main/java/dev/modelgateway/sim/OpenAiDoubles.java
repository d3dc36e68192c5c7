package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two more servers of vendor B's chat completions and embeddings, answering as the OpenAI simulation does:
 * <ul>
 *   <li>Azure OpenAI ({@code <base>/azure}): {@code POST /azure/openai/deployments/{deployment}/chat/completions} and
 *   {@code .../embeddings}, {@code ?api-version=} required (Azure answers 404 without it), key in the {@code api-key}
 *   header. The deployment names the model: the answer's {@code model} is the deployment's, whatever the body says.</li>
 *   <li>An OpenAI-compatible server such as vLLM ({@code <base>/compat/v1}): {@code POST /compat/v1/chat/completions}
 *   and {@code /compat/v1/embeddings}, any key or none.</li>
 * </ul>
 * Both log under their own vendor name ({@code azure}, {@code compat}), so faults can be queued for each.
 */
final class OpenAiDoubles {
    private static final Pattern AZURE = Pattern.compile("^/azure/openai/deployments/([^/]+)/(chat/completions|embeddings)$");

    private final ChatCompletionsApi chat;
    private final EmbeddingsApi embeddings;

    OpenAiDoubles(ChatCompletionsApi chat, EmbeddingsApi embeddings) {
        this.chat = chat;
        this.embeddings = embeddings;
    }

    void azure(Exchange ex, String path, String body) {
        Matcher m = AZURE.matcher(path);
        if (!m.matches()) {
            ex.fail(404, "Resource not found", "404");
            return;
        }
        String version = ex.req.getParam("api-version");
        if (version == null || version.isBlank()) {
            ex.fail(404, "Resource not found", "404");
            return;
        }
        String withModel = body;
        try {
            if (Json.MAPPER.readTree(body) instanceof ObjectNode o) withModel = Json.write(o.put("model", m.group(1)));
        } catch (Exception notJson) {
            // the chat or embeddings handler answers 400
        }
        if (m.group(2).equals("embeddings")) embeddings.handle(ex, withModel);
        else chat.handle(ex, withModel);
    }

    void compatible(Exchange ex, String path, String body) {
        switch (path) {
            case "/compat/v1/chat/completions" -> chat.handle(ex, body);
            case "/compat/v1/embeddings" -> embeddings.handle(ex, body);
            default -> ex.fail(404, "Not Found", null);
        }
    }
}
