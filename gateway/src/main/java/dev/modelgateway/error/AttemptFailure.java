package dev.modelgateway.error;

import java.util.Map;
import java.util.function.Function;

/**
 * Why one attempt at a model failed, as data: what the retry rule ({@code routing.RetryRule}), the circuit
 * breakers and the final error read. Failures still travel as exceptions through Vert.x futures;
 * {@link #of(Throwable)} turns whichever arrived into one of these cases, in one place, by its type: a
 * {@link VendorError}, one of {@link GatewayException}'s typed failures, a timeout ({@link ErrorKind#TIMEOUT}), any
 * other refusal, or a transport failure.
 */
public sealed interface AttemptFailure {
    /**
     * An HTTP status came back: the vendor's own answer (relayed or decoded), or the gateway's refusal of the
     * request before it went out.
     *
     * @param credentialRefused the vendor refused the gateway's own credential (its 401/403, relayed or decoded)
     * @param header            the answer's response headers (retry hints)
     */
    record Status(int status, boolean credentialRefused, Function<String, String> header) implements AttemptFailure { }

    /** The deadline passed, or the vendor fell silent for longer than the idle limit. */
    record TimedOut() implements AttemptFailure { }

    /** The vendor could not be reached or dropped the connection before answering. */
    record Transport() implements AttemptFailure { }

    /** The deployment's circuit breaker refused the attempt. */
    record CircuitOpen(Function<String, String> header) implements AttemptFailure { }

    /** The vendor has no credential configured here. */
    record NotConfigured() implements AttemptFailure { }

    /** The gateway's own saturation: the request never reached the vendor (its pool was full). */
    record Overloaded(Function<String, String> header) implements AttemptFailure { }

    /** The caller went away; the upstream request was reset on its behalf. */
    record CallerLeft() implements AttemptFailure { }

    /** The gateway's drain ended the call as it shut down; the upstream request was reset. */
    record ShuttingDown() implements AttemptFailure { }

    static AttemptFailure of(Throwable t) {
        return switch (t) {
            case VendorError e -> new Status(e.status(), e.status() == 401 || e.status() == 403, e.headers()::get);
            case GatewayException.CredentialRefused g -> new Status(g.status(), true, headers(g.headers()));
            case GatewayException.CircuitOpen g -> new CircuitOpen(headers(g.headers()));
            case GatewayException.NotConfigured g -> new NotConfigured();
            case GatewayException.Overloaded g -> new Overloaded(headers(g.headers()));
            case GatewayException.CallerLeft g -> new CallerLeft();
            case GatewayException.ShuttingDown g -> new ShuttingDown();
            case GatewayException g when g.kind() == ErrorKind.TIMEOUT -> new TimedOut();
            case GatewayException g -> new Status(g.status(), false, headers(g.headers()));
            default -> new Transport();
        };
    }

    private static Function<String, String> headers(Map<String, String> headers) {
        return headers::get;
    }
}
