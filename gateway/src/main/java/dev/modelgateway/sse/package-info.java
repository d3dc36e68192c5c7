/**
 * The incremental Server-Sent Events parser used on every streamed vendor answer.
 *
 * <p>Pure; imports nothing of the gateway.
 */
package dev.modelgateway.sse;
