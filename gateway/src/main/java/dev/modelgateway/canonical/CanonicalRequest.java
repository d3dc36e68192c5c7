package dev.modelgateway.canonical;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A chat request in no vendor's dialect. Lossless for both inbound protocols: everything a client can say
 * is either in a typed field or in {@link #unmapped()}.
 *
 * @param system            leading system text blocks (a system prompt later in the conversation is a
 *                          {@link Role#SYSTEM} message at its position)
 * @param toolChoice        null when the caller did not specify one
 * @param parallelToolCalls null when unspecified; false = at most one tool call per turn
 * @param maxTokens         null when unspecified (codecs of vendors that require it pick a default)
 * @param reasoning         null when unspecified
 * @param includeUsage      the client wants a usage report in the stream (chat stream_options.include_usage;
 *                          always true for messages, whose events always carry usage)
 */
public record CanonicalRequest(
        String model,
        List<ContentBlock.Text> system,
        List<Message> messages,
        List<ToolDefinition> tools,
        List<VendorTool> vendorTools,
        ToolChoice toolChoice,
        Boolean parallelToolCalls,
        Integer maxTokens,
        Double temperature,
        Double topP,
        Integer topK,
        List<String> stop,
        ResponseFormat responseFormat,
        ReasoningConfig reasoning,
        boolean stream,
        boolean includeUsage,
        String user,
        UnmappedFields unmapped) {

    public CanonicalRequest {
        system = List.copyOf(system);
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        vendorTools = List.copyOf(vendorTools);
        stop = List.copyOf(stop);
    }

    /** Every media block given by URL, in document order (message content and tool results). */
    public List<ContentBlock.Media> urlMedia() {
        List<ContentBlock.Media> out = new ArrayList<>();
        for (Message m : messages) collectUrlMedia(m.content(), out);
        return out;
    }

    /**
     * URL media the given vendor cannot forward by reference: the server downloads these (with its SSRF
     * guard) and calls {@link #withInlinedMedia}.
     */
    public List<ContentBlock.Media> urlMediaNeedingBytes(Predicate<ContentBlock.Media> vendorCanForward) {
        return urlMedia().stream().filter(vendorCanForward.negate()).toList();
    }

    /**
     * A copy where each URL medium whose url is a key of {@code fetched} is replaced by the fetched inline
     * medium (the map value's mediaType and data are used).
     */
    public CanonicalRequest withInlinedMedia(Map<String, ContentBlock.Media> fetched) {
        List<Message> out = messages.stream()
                .map(m -> new Message(m.role(), inline(m.content(), fetched)))
                .toList();
        return toBuilder().messages(out).build();
    }

    private static List<ContentBlock> inline(List<ContentBlock> blocks, Map<String, ContentBlock.Media> fetched) {
        List<ContentBlock> out = new ArrayList<>(blocks.size());
        for (ContentBlock b : blocks) {
            out.add(switch (b) {
                case ContentBlock.Media m when m.isUrl() && fetched.containsKey(m.url()) -> {
                    ContentBlock.Media f = fetched.get(m.url());
                    yield m.withBytes(f.mediaType() != null ? f.mediaType() : m.mediaType(), f.data());
                }
                case ContentBlock.ToolResult r ->
                        new ContentBlock.ToolResult(r.toolUseId(), inline(r.content(), fetched), r.isError(), r.cache());
                default -> b;
            });
        }
        return out;
    }

    private static void collectUrlMedia(List<ContentBlock> blocks, List<ContentBlock.Media> out) {
        for (ContentBlock b : blocks) {
            if (b instanceof ContentBlock.Media m && m.isUrl()) out.add(m);
            if (b instanceof ContentBlock.ToolResult r) collectUrlMedia(r.content(), out);
        }
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.model = model; b.system = system; b.messages = messages; b.tools = tools; b.vendorTools = vendorTools;
        b.toolChoice = toolChoice; b.parallelToolCalls = parallelToolCalls; b.maxTokens = maxTokens;
        b.temperature = temperature; b.topP = topP; b.topK = topK; b.stop = stop; b.responseFormat = responseFormat;
        b.reasoning = reasoning; b.stream = stream; b.includeUsage = includeUsage; b.user = user; b.unmapped = unmapped;
        return b;
    }

    public static Builder builder(String protocol) {
        Builder b = new Builder();
        b.unmapped = UnmappedFields.empty(protocol);
        return b;
    }

    public static final class Builder {
        private String model;
        private List<ContentBlock.Text> system = List.of();
        private List<Message> messages = List.of();
        private List<ToolDefinition> tools = List.of();
        private List<VendorTool> vendorTools = List.of();
        private ToolChoice toolChoice;
        private Boolean parallelToolCalls;
        private Integer maxTokens;
        private Double temperature;
        private Double topP;
        private Integer topK;
        private List<String> stop = List.of();
        private ResponseFormat responseFormat;
        private ReasoningConfig reasoning;
        private boolean stream;
        private boolean includeUsage;
        private String user;
        private UnmappedFields unmapped;

        public Builder model(String v) { model = v; return this; }
        public Builder system(List<ContentBlock.Text> v) { system = v; return this; }
        public Builder messages(List<Message> v) { messages = v; return this; }
        public Builder tools(List<ToolDefinition> v) { tools = v; return this; }
        public Builder vendorTools(List<VendorTool> v) { vendorTools = v; return this; }
        public Builder toolChoice(ToolChoice v) { toolChoice = v; return this; }
        public Builder parallelToolCalls(Boolean v) { parallelToolCalls = v; return this; }
        public Builder maxTokens(Integer v) { maxTokens = v; return this; }
        public Builder temperature(Double v) { temperature = v; return this; }
        public Builder topP(Double v) { topP = v; return this; }
        public Builder topK(Integer v) { topK = v; return this; }
        public Builder stop(List<String> v) { stop = v; return this; }
        public Builder responseFormat(ResponseFormat v) { responseFormat = v; return this; }
        public Builder reasoning(ReasoningConfig v) { reasoning = v; return this; }
        public Builder stream(boolean v) { stream = v; return this; }
        public Builder includeUsage(boolean v) { includeUsage = v; return this; }
        public Builder user(String v) { user = v; return this; }
        public Builder unmapped(UnmappedFields v) { unmapped = v; return this; }

        public CanonicalRequest build() {
            return new CanonicalRequest(model, system, messages, tools, vendorTools, toolChoice, parallelToolCalls,
                    maxTokens, temperature, topP, topK, stop, responseFormat, reasoning, stream, includeUsage, user,
                    unmapped);
        }
    }
}
