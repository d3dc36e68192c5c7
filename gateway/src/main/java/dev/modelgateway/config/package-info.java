/**
 * The gateway's configuration: YAML file, environment variables, vendor endpoints (docs/configuration.md).
 *
 * <p>Imports nothing of the gateway. Read once at start-up (file I/O only then).
 */
package dev.modelgateway.config;
