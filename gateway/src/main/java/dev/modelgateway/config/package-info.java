/**
 * The gateway's configuration: YAML file, environment variables, vendor endpoints, providers, deployments, cooldowns (docs/configuration.md).
 *
 * <p>Imports nothing of the gateway. Read at start-up and on a reload (file I/O only then, on a worker thread for a reload).
 */
package dev.modelgateway.config;
