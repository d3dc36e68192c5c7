package dev.modelgateway.architecture.samples.endpoint;

import dev.modelgateway.architecture.samples.accounts.keys.SampleKeyStore;

/** An admin endpoint that uses an accounts store instead of the facade, for {@code LayoutRulesFailTest}. */
public class SampleAdmin {
    public SampleKeyStore keys() {
        return new SampleKeyStore();
    }
}
