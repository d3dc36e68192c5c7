package dev.modelgateway.canonical;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The gateway's o200k_base counts are jtokkit's, on every kind of text a request carries. */
class O200kBaseTest {
    static final O200kBase MINE = O200kBase.load();
    static final Encoding JTOKKIT = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    static void same(String text) {
        assertThat(MINE.count(text)).as("tokens of %.80s", text).isEqualTo(JTOKKIT.countTokensOrdinary(text));
    }

    @Test
    void knownCounts() {
        // vendor B's published examples for o200k_base (tiktoken): "hello world" is 2 tokens
        assertThat(MINE.count("hello world")).isEqualTo(2);
        assertThat(MINE.count("")).isZero();
    }

    @Test
    void handPickedTexts() {
        for (String text : List.of(
                "Hello, world! How's it going? I'M FINE, THEY'LL SEE. We've 'quoted' it.",
                "  leading and trailing spaces   \n\n\r\n\ttabs\t\tand\u00a0non-breaking",
                "def add(a, b):\n    return a + b  # sum\n\nprint(add(1234567, 89))",
                "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                "日本語のテキストと中文文本，한국어 텍스트도。",
                "Emoji 👩‍👩‍👧‍👦 and 🇫🇷 flags, combining e\u0301 and ñ",
                "Numbers 1 12 123 1234 12345 3.14159 1e-10 ٣٤٥ ⅷ",
                "URL https://example.com/a/b?c=d&e=f#g and path C:\\Users\\me\\file.txt",
                "ÀÉÎÕÜ àéîõü ǅungla Σίσυφος ΣΊΣΥΦΟΣ Привет МИР",
                "'s 't 're 've 'm 'll 'd 'S 'T 'RE 'Ve X's ABC'LL",
                "\n\n\n", " ", "a", "\u0000\u0001\u007f", "\ud83d", "x".repeat(5_000),
                "ab".repeat(3_000), "🙂".repeat(500), "1".repeat(1_001), " ".repeat(777) + "end")) {
            same(text);
        }
    }

    @Test
    void theProjectsOwnDocs() throws Exception {
        try (Stream<Path> docs = Files.list(Path.of("../docs"))) {
            for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).toList()) same(Files.readString(doc));
        }
    }

    @Property(tries = 300)
    void randomTexts(@ForAll("texts") String text) {
        same(text);
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<Character> chars = Arbitraries.oneOf(
                Arbitraries.chars().ascii(),
                Arbitraries.chars().with(' ', '\n', '\r', '\t', '\'', 's', 'S', 'l', 'L', '/', '0', '9'),
                Arbitraries.chars().range('\u00c0', '\u024f'),
                Arbitraries.chars().range('\u0370', '\u03ff'),
                Arbitraries.chars().range('\u3040', '\u30ff'),
                Arbitraries.chars().range('\u4e00', '\u4fff'),
                Arbitraries.chars().range('\u0300', '\u036f'));
        return chars.list().ofMaxSize(400).map(list -> {
            StringBuilder text = new StringBuilder();
            list.forEach(text::append);
            return text.toString();
        });
    }
}
