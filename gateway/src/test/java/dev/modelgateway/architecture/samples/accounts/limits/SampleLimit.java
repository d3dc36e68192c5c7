package dev.modelgateway.architecture.samples.accounts.limits;

/** A limit, for {@code LayoutRulesFailTest}. */
public class SampleLimit {
    public int rpm() {
        return 60;
    }
}
