package dev.modelgateway.architecture.samples.wire.anthropic;

import dev.modelgateway.architecture.samples.upstream.SamplePump;
import dev.modelgateway.architecture.samples.wire.gemini.SampleSchema;

/** An anthropic wire class that uses the gemini format and the upstream I/O edge: breaks both rules on purpose. */
public class SampleCodec {
    public final SampleSchema schema = new SampleSchema();
    public final SamplePump pump = new SamplePump();
}
