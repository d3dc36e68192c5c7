package dev.modelgateway.architecture.samples.upstream;

import dev.modelgateway.architecture.samples.endpoint.SampleHandler;

/** An upstream class that reaches up into an endpoint: breaks the layering on purpose. */
public class SamplePump {
    public final SampleHandler handler = new SampleHandler();
}
