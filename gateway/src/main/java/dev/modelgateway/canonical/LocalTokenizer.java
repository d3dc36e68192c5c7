package dev.modelgateway.canonical;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * Token counts computed in the gateway with jtokkit's {@code o200k_base} encoding (vendor B's current
 * tokenizer): exact for vendor B models, an estimate for vendors whose tokenizers are not public
 * (Gemini, Qwen). Thread-safe; encodings are loaded once.
 */
public final class LocalTokenizer {
    private static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    private LocalTokenizer() {
    }

    public static int count(String text) {
        return text == null || text.isEmpty() ? 0 : ENCODING.countTokensOrdinary(text);
    }
}
