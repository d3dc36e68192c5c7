/**
 * Facts about network addresses shared by the edges that connect to URLs they were given ({@code AddressClass}: which
 * addresses are public): the media fetcher in {@code upstream}, the alert webhook in {@code accounts/audit}.
 *
 * <p>Pure; imports nothing of ours, so any package may use it.
 */
package dev.modelgateway.net;
