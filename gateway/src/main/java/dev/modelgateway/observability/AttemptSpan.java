package dev.modelgateway.observability;

import dev.modelgateway.canonical.Usage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;

/**
 * One upstream attempt as a client span under the call's server span (GenAI conventions, "Inference"): its name is
 * {@code {gen_ai.operation.name} {gen_ai.request.model}}, so retries and fallbacks show as siblings. {@link #NONE}
 * when tracing is off: no span, nothing recorded.
 */
public class AttemptSpan {
    public static final AttemptSpan NONE = new AttemptSpan();

    private AttemptSpan() {
    }

    static AttemptSpan start(Tracing tracing, Context parent, String operation, String provider, String deployment,
                             String publicModel, String upstreamModel, int attempt, int fallback, int resend) {
        Span span = tracing.tracer().spanBuilder(operation + " " + upstreamModel)
                .setParent(parent)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(GenAi.OPERATION, operation)
                .setAttribute(GenAi.PROVIDER, GenAi.provider(provider))
                .setAttribute("gateway.deployment", deployment)
                .setAttribute(GenAi.REQUEST_MODEL, upstreamModel)
                .setAttribute("gateway.model", publicModel)
                .setAttribute("gateway.attempt", attempt)
                .setAttribute("gateway.fallback", fallback)
                .setAttribute("http.request.resend_count", resend)
                .startSpan();
        return new Live(span);
    }

    /** The span's context, for the {@code traceparent} sent upstream; null when there is no span. */
    Context context() {
        return null;
    }

    /** The vendor answered: status, the model that answered, usage. */
    public void succeeded(int status, String responseModel, Usage usage) {
    }

    /** The attempt failed: the status it ended with (0 if none) and the failure's kind ({@code error.type}). */
    public void failed(int status, String errorType, String message) {
    }

    private static final class Live extends AttemptSpan {
        private final Span span;

        Live(Span span) {
            this.span = span;
        }

        @Override
        Context context() {
            return Context.root().with(span);
        }

        @Override
        public void succeeded(int status, String responseModel, Usage usage) {
            span.setAttribute("http.response.status_code", status);
            if (responseModel != null) span.setAttribute(GenAi.RESPONSE_MODEL, responseModel);
            RequestTrace.usage(span, usage);
            if (status >= 500 || status == 499) span.setStatus(StatusCode.ERROR);
            span.end();
        }

        @Override
        public void failed(int status, String errorType, String message) {
            if (status > 0) span.setAttribute("http.response.status_code", status);
            span.setAttribute(GenAi.ERROR_TYPE, errorType);
            span.setStatus(StatusCode.ERROR, Redaction.scrub(message));
            span.end();
        }
    }
}
