package dev.modelgateway.architecture.samples.endpoint;

import dev.modelgateway.architecture.samples.upstream.SamplePump;

/** An endpoint that calls a vendor itself instead of through call: breaks the endpoint rule on purpose. */
public class SampleVendorCaller {
    public final SamplePump pump = new SamplePump();
}
