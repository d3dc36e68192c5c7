package dev.modelgateway.sim;

/**
 * API keys the simulator expects per vendor. A {@code null} key means "any non-empty key is accepted",
 * which is handy for demos where clients are configured with arbitrary keys.
 */
public record SimKeys(String anthropic, String openai, String gemini, String dashscope) {

    public static SimKeys defaults() {
        return new SimKeys("sim-anthropic-key", "sim-openai-key", "sim-gemini-key", "sim-dashscope-key");
    }

    /** Accept any non-empty key for every vendor. */
    public static SimKeys anyKey() {
        return new SimKeys(null, null, null, null);
    }

    /** Azure OpenAI's key; accepted as any non-empty key when the simulator accepts any key. */
    public static final String AZURE = "sim-azure-key";

    String forVendor(String vendor) {
        return switch (vendor) {
            case "azure" -> openai == null ? null : AZURE;
            case "anthropic" -> anthropic;
            case "openai" -> openai;
            case "gemini" -> gemini;
            case "dashscope" -> dashscope;
            default -> null;
        };
    }

    boolean accepts(String vendor, String presented) {
        if (presented == null || presented.isEmpty()) return false;
        String expected = forVendor(vendor);
        return expected == null || expected.equals(presented);
    }
}
