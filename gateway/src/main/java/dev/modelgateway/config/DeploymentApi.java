package dev.modelgateway.config;

import java.util.Locale;

/**
 * Which of its provider's APIs a deployment calls (docs/clouds.md, "Bedrock"): the vendor's own wire format
 * ({@code NATIVE}: vendor A's body through Bedrock's InvokeModel, or any provider that has one API), or Bedrock's
 * model-agnostic Converse API, which some organisations allow alone.
 */
public enum DeploymentApi {
    NATIVE, CONVERSE;

    /** {@code api: invoke | converse}, for a {@code bedrock} deployment only. */
    public static DeploymentApi parse(String at, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "invoke" -> NATIVE;
            case "converse" -> CONVERSE;
            default -> throw new IllegalArgumentException(at + " must be invoke or converse, got '" + value + "'");
        };
    }
}
