package dev.modelgateway.canary;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.sim.SimKeys;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The secrets no log line or error body of the suite may show (docs/observability.md, "Redaction"): the harness's
 * master key, the vendor keys every harness configures, and the canaries {@code CanarySecretsTest} plants.
 */
public final class Canaries {
    /** A platform key of the real shape (accounts/KeyToken: pk- and 40 URL-safe characters), presented but unknown. */
    public static final String PLATFORM_KEY = "pk-CanaryPlatformKey0123456789abcdefghijklmnop";
    /** A vendor key as a caller might paste it into a query string (vendor C accepts {@code ?key=}). */
    public static final String QUERY_KEY = "AIzaCanaryQueryKey0123456789abcdefghijk";
    /** A secret a vendor's error message quotes back. */
    public static final String ECHOED = "sk-canary-echoed-by-vendor-0123456789";

    static final List<String> ALL;

    static {
        SimKeys sim = SimKeys.defaults();
        ALL = List.of(GatewayHarness.KEY, sim.anthropic(), sim.openai(), sim.gemini(), sim.dashscope(), PLATFORM_KEY, QUERY_KEY,
                ECHOED);
    }

    /** Any real platform key (the admin API's tests create them). */
    static final Pattern PLATFORM_KEY_SHAPE = Pattern.compile("pk-[A-Za-z0-9_-]{40}");

    private Canaries() {
    }
}
