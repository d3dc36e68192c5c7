package dev.modelgateway.credentials;

/** Where a credential comes from: a blocking fetch (an HTTP call to STS, a metadata server, a token endpoint). */
public interface CredentialSource<T> {
    /** Runs on a worker thread. */
    Expiring<T> fetch() throws Exception;

    /** What to tell an operator about this source (its kind and non-secret identifiers), for health and errors. */
    String describe();
}
