package dev.modelgateway.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShownUrlTest {
    @Test
    void userInfoTokenSegmentsAndQueryValuesAreMaskedTheRestKept() {
        assertThat(ShownUrl.of("https://user:pass@proxy.example.com:8443/v1")).isEqualTo("https://****@proxy.example.com:8443/v1");
        assertThat(ShownUrl.of("https://proxy.example.com/tok3nAbCdEf0123456789/v1")).isEqualTo("https://proxy.example.com/****/v1");
        assertThat(ShownUrl.of("http://h/v1?key=abc&x=1")).isEqualTo("http://h/v1?key=****&x=****");
        // words and versions are not tokens; nor is a host name
        assertThat(ShownUrl.of("https://dashscope.aliyuncs.com/compatible-mode/v1")).isEqualTo("https://dashscope.aliyuncs.com/compatible-mode/v1");
        assertThat(ShownUrl.of("https://a1b2c3d4e5f6g7h8i9.example.com/v1beta/openai")).isEqualTo("https://a1b2c3d4e5f6g7h8i9.example.com/v1beta/openai");
        assertThat(ShownUrl.of(null)).isNull();
    }

    @Test
    void theSecretsAreWhatIsMasked() {
        assertThat(ShownUrl.secrets("https://user:pass@h/tok3nAbCdEf0123456789/v1")).containsExactly("user:pass", "tok3nAbCdEf0123456789");
        assertThat(ShownUrl.secrets("https://api.openai.com/v1")).isEmpty();
    }
}
