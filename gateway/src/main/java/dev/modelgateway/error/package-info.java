/**
 * The gateway's error vocabulary: GatewayException (status, kind, param, code), a vendor's non-2xx answer
 * kept whole (VendorError), and why an attempt failed as data (AttemptFailure).
 *
 * <p>Pure; imports nothing of the gateway.
 */
package dev.modelgateway.error;
