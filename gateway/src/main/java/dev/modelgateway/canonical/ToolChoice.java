package dev.modelgateway.canonical;

/** none / auto / required (any tool) / one named tool. */
public record ToolChoice(Mode mode, String name) {
    public enum Mode { NONE, AUTO, REQUIRED, NAMED }

    public static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);
    public static final ToolChoice NONE = new ToolChoice(Mode.NONE, null);
    public static final ToolChoice REQUIRED = new ToolChoice(Mode.REQUIRED, null);

    public static ToolChoice named(String name) { return new ToolChoice(Mode.NAMED, name); }

    public boolean forcesTool() { return mode == Mode.REQUIRED || mode == Mode.NAMED; }
}
