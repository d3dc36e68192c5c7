package dev.modelgateway.wire.anthropic;

import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which tool loops vendor A takes thinking on: those whose turn opens with its own thinking, read on both paths. */
class ToolLoopTurnTest {
    static final ContentBlock CALL = new ContentBlock.ToolUse("t1", "get_weather", "{}", null, null);
    static final ContentBlock RESULT = new ContentBlock.ToolResult("t1", List.of(new ContentBlock.Text("18C")), false, null);

    @Test
    void aLoopVendorABeganKeepsThinkingAlthoughItsLaterStepDidNotThink() {
        assertThat(ToolLoopTurn.opensWithoutThinking(Fixtures.parse("""
                [{"role":"user","content":"Weather?"},
                 {"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"sig"},
                                                {"type":"tool_use","id":"t1","name":"get_weather","input":{}}]},
                 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"18C"}]},
                 {"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"get_weather","input":{}}]},
                 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"19C"}]}]"""))).isFalse();
        assertThat(ToolLoopTurn.opensWithoutThinking(List.of(
                new Message(Role.USER, List.of(new ContentBlock.Text("Weather?"))),
                new Message(Role.ASSISTANT, List.of(new ContentBlock.Text(" "),
                        new ContentBlock.Thinking("t", "sig", SignatureOrigin.ANTHROPIC), CALL)),
                new Message(Role.USER, List.of(RESULT)),
                new Message(Role.ASSISTANT, List.of(CALL)),
                new Message(Role.USER, List.of(RESULT))))).isFalse();
    }

    @Test
    void aLoopAnotherVendorBeganOpensWithoutThinking() {
        assertThat(ToolLoopTurn.opensWithoutThinking(Fixtures.parse("""
                [{"role":"user","content":"Weather?"},
                 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_weather","input":{}}]},
                 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"18C"}]}]"""))).isTrue();
        // Another vendor's reasoning is never sent to vendor A, so it does not open the turn.
        assertThat(ToolLoopTurn.opensWithoutThinking(List.of(
                new Message(Role.USER, List.of(new ContentBlock.Text("Weather?"))),
                new Message(Role.ASSISTANT, List.of(new ContentBlock.Thinking("t", "gemini:x", SignatureOrigin.GEMINI), CALL)),
                new Message(Role.USER, List.of(RESULT))))).isTrue();
    }

    @Test
    void aNewPromptAfterAnotherVendorsLoopIsNotAToolLoop() {
        assertThat(ToolLoopTurn.opensWithoutThinking(Fixtures.parse("""
                [{"role":"user","content":"Weather?"},
                 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_weather","input":{}}]},
                 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"18C"}]},
                 {"role":"assistant","content":"Mild."},
                 {"role":"user","content":"And in Lyon?"}]"""))).isFalse();
    }
}
