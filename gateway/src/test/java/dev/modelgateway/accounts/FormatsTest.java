package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.ModelGlob;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.limits.GoDuration;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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
        assertThat(ModelGlob.matches("**********Z", "platform/vendorA-sonnet-4.5Z")).isTrue();
        assertThat(ModelGlob.matches("**********Z", "platform/vendorA-sonnet-4.5")).isFalse();
        assertThat(ModelGlob.matches("*a*b", "xaxbxb")).isTrue();
        assertThat(ModelGlob.matches("*a*b", "xaxbxc")).isFalse();
        assertThat(ModelGlob.matches("a*?", "a")).isFalse();
        assertThat(ModelGlob.matches("a*?", "ab")).isTrue();
        assertThat(ModelGlob.matches("", "")).isTrue();
        assertThat(ModelGlob.matches("*", "")).isTrue();
        assertThat(ModelGlob.matches("?", "")).isFalse();
        assertThat(ModelGlob.matches("*", null)).isFalse();
    }

    /** Every glob over a small alphabet against every short model id, checked against the same glob as a regex. */
    @Test
    void modelGlobsAgreeWithRegularExpressions() {
        String[] symbols = {"a", "b", "*", "?"};
        List<String> globs = words(symbols, 4);
        List<String> models = words(new String[]{"a", "b"}, 5);
        for (String glob : globs) {
            Pattern regex = Pattern.compile(glob.replace("?", ".").replace("*", ".*"), Pattern.DOTALL);
            for (String model : models) {
                assertThat(ModelGlob.matches(glob, model)).as(glob + " ~ " + model).isEqualTo(regex.matcher(model).matches());
            }
        }
    }

    /**
     * Not a timing: the recursive matcher tried every split of the model among the stars, about 10^15 of them here
     * (hours); one that is linear in the model for each star takes microseconds. The bound only guards against that.
     */
    @Test
    void aGlobThatBacktrackedExponentiallyIsMatchedAtOnce() {
        String glob = "*a".repeat(12) + "*b";
        String model = "a".repeat(100);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThat(ModelGlob.matches(glob, model)).isFalse());
        assertThat(ModelGlob.matches(glob, model + "b")).isTrue();
    }

    private static List<String> words(String[] symbols, int maxLength) {
        List<String> all = new ArrayList<>(List.of(""));
        List<String> last = List.of("");
        for (int n = 1; n <= maxLength; n++) {
            List<String> next = new ArrayList<>();
            for (String w : last) for (String s : symbols) next.add(w + s);
            all.addAll(next);
            last = next;
        }
        return all;
    }

    @Test
    void moneyIsExact() {
        assertThat(Money.text(Money.toE10(new java.math.BigDecimal("0.0000000001")))).isEqualTo("0.0000000001");
        assertThat(Money.text(Money.toE10(new java.math.BigDecimal("1200")))).isEqualTo("1200");
        assertThat(Money.text(0)).isEqualTo("0");
    }
}
