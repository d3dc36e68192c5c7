package dev.modelgateway.canonical;

import java.util.List;

public record Message(Role role, List<ContentBlock> content) {
    public Message {
        content = List.copyOf(content);
    }
}
