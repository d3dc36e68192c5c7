/**
 * Requests recorded from real CLIs (Claude Code, Codex) by the compatibility suite ({@code compat/},
 * {@code fixtures/clients/}), replayed through the gateway to every vendor.
 */
package dev.modelgateway.e2e.clients;
