/**
 * The lossless intermediate model every translation goes through: requests, responses, stream events, usage.
 *
 * <p>Pure data and functions; imports nothing of the gateway but itself.
 */
package dev.modelgateway.canonical;
