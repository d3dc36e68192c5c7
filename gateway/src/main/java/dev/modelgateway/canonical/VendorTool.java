package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A vendor-hosted tool (Anthropic web_search_20250305, OpenAI custom tools…) kept verbatim for that vendor. */
public record VendorTool(String vendor, ObjectNode raw) { }
