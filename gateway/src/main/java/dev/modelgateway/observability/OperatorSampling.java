package dev.modelgateway.observability;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

import java.util.List;

/**
 * The operator's sampler, deciding alone for a span whose parent came from the caller: the SDK's default
 * ({@code parentbased_always_on}) obeys the sampled flag of the caller's {@code traceparent}, so a caller sending
 * {@code -00} kept its calls out of the operator's traces, and one sending {@code -01} forced them in whatever the
 * configured ratio. The caller's trace is still continued (its trace id and parent span); spans under the gateway's
 * own follow their parent as before. {@code observability.follow_caller_sampling: true} restores the SDK's rule.
 */
final class OperatorSampling implements Sampler {
    private final Sampler operator;

    OperatorSampling(Sampler operator) {
        this.operator = operator;
    }

    @Override
    public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind, Attributes attributes,
                                       List<LinkData> links) {
        // without the remote parent, a parent-based sampler applies its root rule (always on, or the trace id ratio)
        boolean remote = Span.fromContext(parent).getSpanContext().isRemote();
        return operator.shouldSample(remote ? Context.root() : parent, traceId, name, kind, attributes, links);
    }

    @Override
    public String getDescription() {
        return "OperatorSampling{" + operator.getDescription() + "}";
    }
}
