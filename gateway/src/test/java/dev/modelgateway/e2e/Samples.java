package dev.modelgateway.e2e;

import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;

import java.util.List;
import java.util.Map;

/** Inputs that tests of several features send through the gateway. */
public final class Samples {
    /** A 1×1 PNG, base64. */
    public static final String TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    /** {@code get_weather(city)} as an openai-java chat tool. */
    public static final ChatCompletionFunctionTool WEATHER = ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
            .name("get_weather").description("Weather for a city")
            .parameters(FunctionParameters.builder()
                    .putAdditionalProperty("type", JsonValue.from("object"))
                    .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                    .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                    .build())
            .build()).build();

    private Samples() {
    }
}
