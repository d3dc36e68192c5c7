package dev.modelgateway.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** Turns a {@link Conversation} and directive into the deterministic {@link Answer} documented in README. */
final class AnswerPlanner {
    private static final String[] SYNTHETIC = {"lorem", "ipsum", "dolor", "sit", "amet", "sed", "do", "eius"};

    private AnswerPlanner() {
    }

    static String thinkingText(String lastUserText) {
        return "Let me think about: " + head(lastUserText, 60);
    }

    static Answer plan(Conversation c, Directive d, String idPrefix, LongSupplier ids) {
        String thinking = c.thinking() ? thinkingText(c.lastUserText()) : null;
        int thinkingTokens = Tokens.of(thinking);

        if (!c.tools().isEmpty() && c.toolChoice().mode() != Conversation.ChoiceMode.NONE && c.toolResult() == null
                && !(Directive.NO_TOOL.equals(d.tool()) && c.toolChoice().mode() == Conversation.ChoiceMode.AUTO)) {
            List<Answer.ToolCall> calls = new ArrayList<>();
            long argChars = 0;
            for (Conversation.Tool t : chooseTools(c, d)) {
                String args = givenArgs(t, d);
                if (args == null) args = Json.write(SchemaFaker.fake(t.schema()));
                argChars += args.length();
                calls.add(new Answer.ToolCall(idPrefix == null ? null : idPrefix + ids.getAsLong(), t.name(), args));
            }
            return new Answer(thinking, "", List.of(), calls, Answer.Stop.TOOL, thinkingTokens, Tokens.ofChars(argChars));
        }

        String text;
        List<String> pieces;
        if (c.toolResult() != null) {
            text = "Tool result received: " + head(c.toolResult(), 100);
            pieces = words(text);
        } else if (c.format() != null) {
            JsonNode value = c.format().schema() == null
                    ? Json.obj().put("answer", greeting(c))
                    : SchemaFaker.fake(c.format().schema());
            text = Json.write(value);
            pieces = words(text);
        } else if (d.chunks() > 0) {
            pieces = synthetic(d.chunks());
            text = String.join("", pieces);
        } else {
            text = greeting(c);
            pieces = words(text);
        }

        Answer.Stop stop = Answer.Stop.END;
        if (c.maxTokens() != null) {
            long maxChars = Math.max(0L, (long) c.maxTokens() - thinkingTokens) * 4;
            if (text.length() > maxChars) {
                stop = Answer.Stop.MAX_TOKENS;
                text = text.substring(0, (int) maxChars);
                pieces = cut(pieces, (int) maxChars);
            }
        }
        return new Answer(thinking, text, pieces, List.of(), stop, thinkingTokens, Tokens.of(text));
    }

    static String greeting(Conversation c) {
        String s = "Hello from " + c.model() + ". You said: " + head(c.lastUserText(), 200);
        return c.imageCount() > 0 ? s + " I see " + c.imageCount() + " image(s)." : s;
    }

    private static List<Conversation.Tool> chooseTools(Conversation c, Directive d) {
        List<Conversation.Tool> tools = c.tools();
        if (c.toolChoice().mode() == Conversation.ChoiceMode.NAMED) {
            for (Conversation.Tool t : tools) if (t.name().equals(c.toolChoice().name())) return List.of(t);
        }
        if (d.tool() != null) {
            for (Conversation.Tool t : tools) if (t.name().equals(d.tool())) return List.of(t);
        }
        int n = Math.max(1, Math.min(d.parallelTools() > 0 ? d.parallelTools() : 1, tools.size()));
        return tools.subList(0, n);
    }

    /** The directive's {@code args} JSON (compacted) for the tool it names; null to fake them from the schema. */
    private static String givenArgs(Conversation.Tool t, Directive d) {
        if (d.args() == null || !t.name().equals(d.tool())) return null;
        try {
            return Json.write(Json.MAPPER.readTree(d.args()));
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    static String head(String s, int max) {
        if (s == null) return "";
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** Word-sized pieces: every piece but the first starts with the space that preceded it. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i) == ' ' && text.charAt(i - 1) != ' ') {
                out.add(text.substring(start, i));
                start = i;
            }
        }
        if (start < text.length()) out.add(text.substring(start));
        return out;
    }

    private static List<String> synthetic(int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(i == 0 ? SYNTHETIC[0] : " " + SYNTHETIC[i % SYNTHETIC.length]);
        return out;
    }

    private static List<String> cut(List<String> pieces, int maxChars) {
        List<String> out = new ArrayList<>();
        int used = 0;
        for (String p : pieces) {
            if (used + p.length() <= maxChars) {
                out.add(p);
                used += p.length();
            } else {
                if (maxChars - used > 0) out.add(p.substring(0, maxChars - used));
                break;
            }
        }
        return out;
    }

    /** Splits JSON text into about three fragments, as vendors stream tool arguments. */
    static List<String> thirds(String json) {
        int n = json.length();
        if (n < 3) return List.of(json);
        int a = n / 3, b = 2 * n / 3;
        return List.of(json.substring(0, a), json.substring(a, b), json.substring(b));
    }
}
