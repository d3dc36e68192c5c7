/**
 * The command-line adapters: {@code ./gw keys} ({@link dev.modelgateway.cli.KeysCommand}), which parses its flags,
 * hands the work to {@code accounts.DatabaseAdministration} and prints the result.
 *
 * <p>May import accounts, catalogue, error, json. Blocking: it runs in its own process, not on an event loop.
 */
package dev.modelgateway.cli;
