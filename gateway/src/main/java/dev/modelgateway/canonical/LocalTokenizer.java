package dev.modelgateway.canonical;

/**
 * Token counts computed in the gateway with vendor B's current encoding, {@code o200k_base} ({@link O200kBase}):
 * exact for vendor B models, an estimate for vendors whose tokenizers are not public (Gemini, Qwen).
 * Thread-safe; the ranks are loaded once, on first use.
 */
public final class LocalTokenizer {
    private LocalTokenizer() {
    }

    public static int count(String text) {
        return text == null || text.isEmpty() ? 0 : Encoding.O200K.count(text);
    }

    /** Loaded when first counted: a gateway that never counts locally never holds the ranks. */
    private static final class Encoding {
        static final O200kBase O200K = O200kBase.load();
    }
}
