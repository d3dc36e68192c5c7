package dev.modelgateway.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures;
import io.vertx.ext.web.Router;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The dependency direction of docs/architecture.md, as ArchUnit rules over a root package; {@link LayoutTest}
 * applies them to the gateway and {@link LayoutRulesFailTest} to classes that break them on purpose.
 */
final class LayoutRules {
    /** Wire formats that may build on another one, with the reason (docs/architecture.md, "wire"). */
    private static final List<String[]> WIRE_REUSE = List.of(
            // DashScope's compatible mode is chat completions with a dialect (ChatDialect.QWEN)
            new String[]{"qwen", "openai.chat"},
            // vendor B's Responses API reports errors in its chat completions shape
            new String[]{"openai.responses", "openai.chat"},
            // Bedrock's embedding models answer in vendor B's embeddings shape (openai/media/EmbeddingVectors)
            new String[]{"bedrock", "openai.media"},
            // Bedrock's InvokeModel takes vendor A's own body (BedrockInvokeCodec)
            new String[]{"bedrock", "anthropic"},
            // Converse is Bedrock's: its model ids, path encoding and errors (BedrockModelId, BedrockErrors)
            new String[]{"converse", "bedrock"},
            // Vertex AI serves vendor A's and vendor C's own formats; its embeddings answer vendor B's list
            new String[]{"vertex", "anthropic"},
            new String[]{"vertex", "gemini"},
            new String[]{"vertex", "openai.media"});
    private static final String[] WIRE_FORMATS = {"anthropic", "gemini", "openai.chat", "openai.responses", "openai.media", "qwen",
            "bedrock", "vertex", "converse"};
    /** The accounts' own face, used by its parts and the rest of the gateway alike: who calls, what it reports, its settings. */
    private static final Set<String> ACCOUNTS_API = Set.of("ApiKey", "UsageRecord", "AccountsConfig", "Admission");
    /** What reads or writes storage, or talks to Redis or a webhook. */
    private static final List<String> STORAGE = List.of("java.sql", "java.nio.file", "java.nio.channels", "io.vertx.redis",
            "io.vertx.core.http");
    /** The methods of a Vert.x {@link Router} that mount a route. */
    private static final String MOUNTING = "(route|get|head|options|put|post|delete|trace|connect|patch)(WithRegex)?";

    private LayoutRules() {
    }

    /** Who may use whom: server → endpoint → call → (routing, upstream) → wire → canonical and the foundations. */
    static ArchRule layers(String root) {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("server").definedBy(root + ".server..")
                .layer("endpoint").definedBy(root + ".endpoint..")
                .layer("services").definedBy(root + ".services..")
                .layer("console").definedBy(root + ".console..")
                .layer("call").definedBy(root + ".call..")
                .layer("routing").definedBy(root + ".routing..")
                .layer("upstream").definedBy(root + ".upstream..")
                .layer("credentials").definedBy(root + ".credentials..")
                .layer("http").definedBy(root + ".http..")
                .layer("observability").definedBy(root + ".observability..")
                .layer("wire").definedBy(root + ".wire..")
                .layer("identity").definedBy(root + ".identity..")
                .whereLayer("server").mayNotBeAccessedByAnyLayer()
                .whereLayer("identity").mayOnlyBeAccessedByLayers("server", "endpoint", "console")
                .whereLayer("endpoint").mayOnlyBeAccessedByLayers("server")
                .whereLayer("services").mayOnlyBeAccessedByLayers("server", "endpoint")
                .whereLayer("console").mayOnlyBeAccessedByLayers("server")
                .whereLayer("call").mayOnlyBeAccessedByLayers("server", "endpoint")
                .whereLayer("upstream").mayOnlyBeAccessedByLayers("server", "services", "call")
                .whereLayer("credentials").mayOnlyBeAccessedByLayers("server", "upstream")
                .whereLayer("routing").mayOnlyBeAccessedByLayers("server", "endpoint", "services", "call", "upstream")
                .whereLayer("http").mayOnlyBeAccessedByLayers("server", "endpoint", "services", "console", "call", "upstream")
                .whereLayer("observability").mayOnlyBeAccessedByLayers("server", "endpoint", "services", "console", "call", "upstream", "http")
                .whereLayer("wire").mayOnlyBeAccessedByLayers("server", "endpoint", "services", "console", "call", "upstream", "http")
                .allowEmptyShould(true);
    }

    /**
     * Endpoints reach vendors only through {@code call} (OperationCall, CallRunner, RealtimeSessions): they parse,
     * validate, resolve the model and hand over, so every vendor call is admitted, routed and recorded the same way.
     */
    static ArchRule endpointsCallVendorsThroughCall(String root) {
        return noClasses().that().resideInAPackage(root + ".endpoint..")
                .should().dependOnClassesThat().resideInAPackage(root + ".upstream..")
                .as("endpoints use no upstream class: vendor calls go through call")
                .allowEmptyShould(true);
    }

    /** The wire packages are pure: no I/O edge, no call orchestration, no HTTP server, no accounts or storage. */
    static ArchRule wireIsPure(String root) {
        return noClasses().that().resideInAPackage(root + ".wire..")
                .should().dependOnClassesThat().resideInAnyPackage(root + ".upstream..", root + ".call..",
                        root + ".endpoint..", root + ".server..", root + ".http..", root + ".services..",
                        root + ".accounts..", root + ".store..", "io.vertx.ext.web..", "io.vertx.core.http..", "java.net..")
                .allowEmptyShould(true);
    }

    /** One wire format never reaches into another, but for the reuses listed in {@link #WIRE_REUSE}. */
    static List<ArchRule> wireFormatsApart(String root) {
        return Arrays.stream(WIRE_FORMATS).map(format -> {
            String[] others = Arrays.stream(WIRE_FORMATS)
                    .filter(other -> !other.equals(format))
                    .filter(other -> WIRE_REUSE.stream().noneMatch(r -> r[0].equals(format) && r[1].equals(other)))
                    .map(other -> root + ".wire." + other + "..")
                    .toArray(String[]::new);
            return (ArchRule) noClasses().that().resideInAPackage(root + ".wire." + format + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .as("wire/" + format.replace('.', '/') + " uses no other wire format")
                    .allowEmptyShould(true);
        }).toList();
    }

    /**
     * Every route is mounted in {@code server/GatewayRouter} (docs/architecture.md, "One HTTP edge"): no other class
     * calls a {@link Router} method that mounts one, so that one file lists all the routes.
     */
    static ArchRule routesOnlyInGatewayRouter(String root) {
        String router = root + ".server.GatewayRouter";
        DescribedPredicate<JavaClass> gatewayRouter = DescribedPredicate.describe("server/GatewayRouter",
                c -> c.getName().equals(router) || c.getName().startsWith(router + "$"));
        return noClasses().that().resideInAPackage(root + "..").and(DescribedPredicate.not(gatewayRouter))
                .should().callMethodWhere(target(owner(assignableTo(Router.class))).and(target(nameMatching(MOUNTING))))
                .as("routes are mounted in server/GatewayRouter only")
                .allowEmptyShould(true);
    }

    /**
     * The accounts' parts (docs/architecture.md, "accounts"): the facade ({@code accounts}, but for its API types)
     * composes them and none of them reaches back into it; {@code keys} knows no other part, {@code ledger} only
     * {@code keys}, {@code limits} and {@code audit} only those two.
     */
    static ArchRule accountsParts(String root) {
        String accounts = root + ".accounts";
        DescribedPredicate<JavaClass> facade = DescribedPredicate.describe("the accounts facade", c -> c.getPackageName().equals(accounts)
                && !ACCOUNTS_API.contains(c.getName().substring(accounts.length() + 1).split("\\$")[0]));
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("facade").definedBy(facade)
                .layer("keys").definedBy(accounts + ".keys..")
                .layer("ledger").definedBy(accounts + ".ledger..")
                .layer("limits").definedBy(accounts + ".limits..")
                .layer("audit").definedBy(accounts + ".audit..")
                .whereLayer("facade").mayNotBeAccessedByAnyLayer()
                .whereLayer("limits").mayOnlyBeAccessedByLayers("facade")
                .whereLayer("audit").mayOnlyBeAccessedByLayers("facade")
                .whereLayer("ledger").mayOnlyBeAccessedByLayers("facade", "limits", "audit")
                .whereLayer("keys").mayOnlyBeAccessedByLayers("facade", "ledger", "limits", "audit")
                .allowEmptyShould(true);
    }

    /**
     * Outside {@code accounts}, nothing uses the accounts' storage (the stores, the ledger's writer and journal, the
     * rate limiters and holds on Redis, the alerts' sender): only the facade drives them. The parts' values (a key's
     * settings, a usage report, a re-pricing's result) may be read anywhere.
     */
    static ArchRule accountsStorageStaysInside(String root) {
        String accounts = root + ".accounts";
        DescribedPredicate<JavaClass> storage = DescribedPredicate.describe("an accounts part that reads or writes storage",
                c -> c.getPackageName().startsWith(accounts + ".") && c.getDirectDependenciesFromSelf().stream()
                        .map(d -> d.getTargetClass().getPackageName())
                        .anyMatch(p -> p.startsWith(root + ".store") || STORAGE.stream().anyMatch(p::startsWith)));
        return noClasses().that().resideOutsideOfPackage(accounts + "..")
                .should().dependOnClassesThat(storage)
                .as("outside accounts, nothing touches the accounts' storage")
                .allowEmptyShould(true);
    }

    /** {@code access} (who may do what) is pure values: nothing of ours but itself, no I/O. */
    static ArchRule accessIsPure(String root) {
        return noClasses().that().resideInAPackage(root + ".access..")
                .should().dependOnClassesThat(DescribedPredicate.describe("another package of ours, or I/O",
                        c -> c.getPackageName().startsWith(root + ".") && !c.getPackageName().startsWith(root + ".access")
                                || STORAGE.stream().anyMatch(c.getPackageName()::startsWith) || c.getPackageName().startsWith("io.vertx")))
                .as("access is pure").allowEmptyShould(true);
    }

    /** No cycles between the top-level packages. */
    static ArchRule noCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles().allowEmptyShould(true);
    }
}
