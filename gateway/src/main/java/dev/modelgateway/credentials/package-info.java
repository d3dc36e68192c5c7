/**
 * The clouds' credentials (docs/clouds.md, "Credentials"): one {@link dev.modelgateway.credentials.RefreshingCredential}
 * per source, which fetches through the cloud's own library on a worker thread (never on an event loop), keeps the
 * value until shortly before it expires, lets concurrent callers share one refresh, and reports a failing source as
 * a health state. {@code aws} holds AWS's (signing and its credential providers), {@code google} Google's. May import
 * {@code config}, {@code error} and {@code time} of ours; it runs beside the event loops.
 */
package dev.modelgateway.credentials;
