/**
 * The web console (docs/console.md): static pages under {@code /console/}, a read API under
 * {@code /api/v1/console/}, and the usage rollups with the job that keeps them. May import {@code access} (who
 * the principal is and how far it sees), {@code accounts}
 * (the caller's key, the database), {@code store}, {@code http} and {@code error}; the request path never
 * calls into it. Handlers run on the event loop; every query runs on a worker thread.
 */
package dev.modelgateway.console;
