package dev.modelgateway.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The layout rules catch what they are meant to: {@code samples} holds a wire → upstream import, a
 * wire/anthropic → wire/gemini import, an upstream → endpoint import, an endpoint → upstream import, an endpoint
 * mounting its own route, an accounts/keys → accounts/limits import and an endpoint using an accounts store, and each
 * rule must fail on it.
 */
class LayoutRulesFailTest {
    private static final String SAMPLES = "dev.modelgateway.architecture.samples";
    private static JavaClasses samples;

    @BeforeAll
    static void importSamples() {
        samples = new ClassFileImporter().importPackages(SAMPLES);
    }

    @Test
    void upstreamUsingAnEndpointBreaksTheLayers() {
        assertThatThrownBy(() -> LayoutRules.layers(SAMPLES).check(samples))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("SamplePump")
                .hasMessageContaining("SampleHandler");
    }

    @Test
    void anEndpointUsingUpstreamBypassesCall() {
        assertThatThrownBy(() -> LayoutRules.endpointsCallVendorsThroughCall(SAMPLES).check(samples))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("endpoints use no upstream class")
                .hasMessageContaining("SampleVendorCaller")
                .hasMessageContaining("SamplePump");
    }

    @Test
    void wireUsingUpstreamIsNotPure() {
        assertThatThrownBy(() -> LayoutRules.wireIsPure(SAMPLES).check(samples))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("SampleCodec")
                .hasMessageContaining("SamplePump");
    }

    @Test
    void aRouteMountedOutsideGatewayRouterIsCaught() {
        assertThatThrownBy(() -> LayoutRules.routesOnlyInGatewayRouter(SAMPLES).check(samples))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("routes are mounted in server/GatewayRouter only")
                .hasMessageContaining("SampleRoutes");
    }

    @Test
    void keysUsingLimitsBreaksTheAccountsParts() {
        assertThatThrownBy(() -> LayoutRules.accountsParts(SAMPLES).check(samples))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("SampleKeyStore")
                .hasMessageContaining("SampleLimit");
    }

    @Test
    void anEndpointUsingAnAccountsStoreIsCaught() {
        assertThatThrownBy(() -> LayoutRules.accountsStorageStaysInside(SAMPLES).check(samples))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("outside accounts, nothing touches the accounts' storage")
                .hasMessageContaining("SampleAdmin")
                .hasMessageContaining("SampleKeyStore");
    }

    @Test
    void anthropicUsingGeminiBreaksFormatSeparation() {
        assertThatThrownBy(() -> LayoutRules.wireFormatsApart(SAMPLES).forEach(rule -> rule.check(samples)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("wire/anthropic uses no other wire format")
                .hasMessageContaining("SampleSchema");
    }
}
