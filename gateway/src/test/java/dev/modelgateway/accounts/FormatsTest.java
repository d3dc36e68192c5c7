package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.ModelGlob;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.limits.GoDuration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FormatsTest {
    @Test
    void durationsAsOpenAiWritesThem() {
        assertThat(GoDuration.format(0)).isEqualTo("0s");
        assertThat(GoDuration.format(17)).isEqualTo("17ms");
        assertThat(GoDuration.format(1000)).isEqualTo("1s");
        assertThat(GoDuration.format(1500)).isEqualTo("1.5s");
        assertThat(GoDuration.format(360_000)).isEqualTo("6m0s");
        assertThat(GoDuration.format(3_723_000)).isEqualTo("1h2m3s");
    }

    @Test
    void modelGlobs() {
        assertThat(ModelGlob.matches("platform/vendorA-*", "platform/vendorA-large")).isTrue();
        assertThat(ModelGlob.matches("platform/vendorA-*", "platform/vendorB-large")).isFalse();
        assertThat(ModelGlob.matches("*", "any/thing")).isTrue();
        assertThat(ModelGlob.matches("platform/*-small", "platform/vendorA-small")).isTrue();
        assertThat(ModelGlob.matches("model-?", "model-1")).isTrue();
        assertThat(ModelGlob.matches("model-?", "model-12")).isFalse();
        assertThat(ModelGlob.matches("exact", "exact")).isTrue();
        assertThat(ModelGlob.matches("exact", "exactly")).isFalse();
    }

    @Test
    void moneyIsExact() {
        assertThat(Money.text(Money.toE10(new java.math.BigDecimal("0.0000000001")))).isEqualTo("0.0000000001");
        assertThat(Money.text(Money.toE10(new java.math.BigDecimal("1200")))).isEqualTo("1200");
        assertThat(Money.text(0)).isEqualTo("0");
    }
}
