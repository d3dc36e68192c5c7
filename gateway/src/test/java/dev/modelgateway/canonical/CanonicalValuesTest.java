package dev.modelgateway.canonical;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalValuesTest {
    @Test
    void dataUrlsWithParametersParse() {
        assertThat(DataUrl.parse("data:image/png;charset=binary;base64,AAA")).isEqualTo(new DataUrl("image/png", "AAA"));
        assertThat(DataUrl.parse("data:Image/JPEG;base64,BBB")).isEqualTo(new DataUrl("image/jpeg", "BBB"));
        assertThat(DataUrl.parse("data:text/plain,hello")).isNull();
        assertThat(DataUrl.parse("https://x")).isNull();
    }

    @Test
    void toolArgumentsConvertBothWaysAndWrapInvalidJson() {
        assertThat(ToolArguments.toObject("").isEmpty()).isTrue();
        assertThat(ToolArguments.toObject("{\"a\":1}").get("a").asInt()).isEqualTo(1);
        assertThat(ToolArguments.toObject("{\"a\": \"tru").get(ToolArguments.RAW_KEY).asText()).isEqualTo("{\"a\": \"tru");
        assertThat(ToolArguments.toObject("[1]").get(ToolArguments.RAW_KEY).asText()).isEqualTo("[1]");
        assertThat(ToolArguments.toText(null)).isEqualTo("{}");
    }

    @Test
    void toolIdsAreDeterministicValidAndBounded() {
        String a = ToolCallIds.sanitize("functions.Bash:0", 40);
        assertThat(a).isEqualTo(ToolCallIds.sanitize("functions.Bash:0", 40)).matches("^[a-zA-Z0-9_-]+$");
        assertThat(ToolCallIds.sanitize("y".repeat(100), 40)).hasSize(40);
        assertThat(ToolCallIds.sanitize(a, 40)).isEqualTo(a);
        assertThat(ToolCallIds.synthesize("resp", 0)).isNotEqualTo(ToolCallIds.synthesize("resp", 1));
    }

    @Test
    void effortAndBudgetPolicy() {
        assertThat(ReasoningBudgets.budgetFor("low")).isEqualTo(2048);
        assertThat(ReasoningBudgets.budgetFor("none")).isNull();
        assertThat(ReasoningBudgets.effortFor(1024)).isEqualTo("low");
        assertThat(ReasoningBudgets.effortFor(30000)).isEqualTo("high");
        assertThat(ReasoningBudgets.budgetOf(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, null, null))).isEqualTo(8192);
    }

    @Test
    void usageTotalsNeverDoubleCount() {
        Usage u = new Usage(3, 1111, 418, 10, 33, 5);
        assertThat(u.totalInputTokens()).isEqualTo(3 + 1111 + 418 + 10);
        assertThat(u.totalTokens()).isEqualTo(u.totalInputTokens() + 33);
    }
}
