package dev.modelgateway.architecture.samples.endpoint;

/** An endpoint, for {@code LayoutRulesFailTest}. */
public class SampleHandler {
}
