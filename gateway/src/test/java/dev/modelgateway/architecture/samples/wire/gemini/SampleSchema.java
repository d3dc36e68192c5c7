package dev.modelgateway.architecture.samples.wire.gemini;

/** A gemini wire class. */
public class SampleSchema {
}
