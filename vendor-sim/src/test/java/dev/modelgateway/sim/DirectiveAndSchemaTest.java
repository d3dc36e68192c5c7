package dev.modelgateway.sim;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Unit tests for the directive grammar, the times counter and the schema-driven value generator. */
class DirectiveAndSchemaTest {

    @Test
    void parsesKeysAndFlags() {
        Directive d = Directive.find("{\"content\":\"hi [[sim:status=429;retry_after=2;times=3;malformed;chunks=7]] there\"}");
        assertThat(d.status()).isEqualTo(429);
        assertThat(d.retryAfter()).isEqualTo(2);
        assertThat(d.times()).isEqualTo(3);
        assertThat(d.malformed()).isTrue();
        assertThat(d.chunks()).isEqualTo(7);
        assertThat(d.delayMs()).isEqualTo(-1);
        assertThat(Directive.find("no directive").isNone()).isTrue();
        assertThat(Directive.find("[[sim:status\\u003d500]]").status()).isEqualTo(500);
    }

    @Test
    void toolAndArgsSurviveJsonEscaping() {
        Directive d = Directive.find(Json.write(Json.obj().put("content",
                "run [[sim:chunks=2;tool=Bash;args={\"command\":\"echo a=1; echo b > out.txt\"}]] now")));
        assertThat(d.tool()).isEqualTo("Bash");
        assertThat(d.args()).isEqualTo("{\"command\":\"echo a=1; echo b > out.txt\"}");
        assertThat(d.chunks()).isEqualTo(2);
        assertThat(Directive.find("[[sim:tool=none]]").tool()).isEqualTo(Directive.NO_TOOL);
        assertThat(Directive.find("[[sim:tool=x]]").args()).isNull();
        assertThat(Directive.parse("tool=x;args={}").withoutFaults().args()).isEqualTo("{}");
    }

    @Test
    void timesCountsPerDirectiveTextAndKeepsShaping() {
        FaultBook book = new FaultBook();
        Directive d = Directive.parse("status=500;times=1;chunks=4");
        assertThat(book.resolve("openai", d).status()).isEqualTo(500);
        Directive after = book.resolve("openai", d);
        assertThat(after.status()).isEqualTo(-1);
        assertThat(after.chunks()).isEqualTo(4);
        book.queue("gemini", Directive.parse("status=503"));
        assertThat(book.resolve("openai", Directive.NONE).status()).isEqualTo(-1);
        assertThat(book.resolve("gemini", Directive.NONE).status()).isEqualTo(503);
        assertThat(book.resolve("gemini", Directive.NONE).status()).isEqualTo(-1);
    }

    @Test
    void schemaFakerCoversTypes() {
        String schema = "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\"},\"e\":{\"enum\":[\"x\",\"y\"]},\"n\":{\"type\":[\"null\",\"number\"]},"
                + "\"a\":{\"type\":\"ARRAY\",\"items\":{\"type\":\"STRING\"}},\"o\":{\"anyOf\":[{\"type\":\"boolean\"},{\"type\":\"null\"}]},\"u\":{}}}";
        assertThat(Json.write(SchemaFaker.fake(SimTestBase.json(schema))))
                .isEqualTo("{\"s\":\"sim\",\"e\":\"x\",\"n\":1,\"a\":[],\"o\":true,\"u\":\"sim\"}");
    }

    @Test
    void wordsKeepLeadingSpaces() {
        assertThat(AnswerPlanner.words("Hello from  x. y")).containsExactly("Hello", " from", "  x.", " y");
        assertThat(String.join("", AnswerPlanner.thirds("{\"a\":\"sim\"}"))).isEqualTo("{\"a\":\"sim\"}");
    }
}
