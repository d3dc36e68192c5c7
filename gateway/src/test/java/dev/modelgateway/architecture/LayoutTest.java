package dev.modelgateway.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The gateway's packages keep the dependency direction drawn in docs/architecture.md. */
class LayoutTest {
    private static final String ROOT = "dev.modelgateway";
    private static JavaClasses gateway;

    @BeforeAll
    static void importGateway() {
        gateway = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);
    }

    @Test
    void layersAreUsedOnlyFromAbove() {
        LayoutRules.layers(ROOT).check(gateway);
    }

    @Test
    void endpointsCallVendorsThroughCall() {
        LayoutRules.endpointsCallVendorsThroughCall(ROOT).check(gateway);
    }

    @Test
    void wireIsPure() {
        LayoutRules.wireIsPure(ROOT).check(gateway);
    }

    @Test
    void wireFormatsStayApart() {
        LayoutRules.wireFormatsApart(ROOT).forEach(rule -> rule.check(gateway));
    }

    @Test
    void routesAreMountedInGatewayRouterOnly() {
        LayoutRules.routesOnlyInGatewayRouter(ROOT).check(gateway);
    }

    @Test
    void accountsPartsDependDownwardOnly() {
        LayoutRules.accountsParts(ROOT).check(gateway);
    }

    @Test
    void accountsStorageStaysInsideAccounts() {
        LayoutRules.accountsStorageStaysInside(ROOT).check(gateway);
    }

    @Test
    void accessIsPure() {
        LayoutRules.accessIsPure(ROOT).check(gateway);
    }

    @Test
    void topLevelPackagesHaveNoCycles() {
        LayoutRules.noCycles(ROOT).check(gateway);
    }
}
