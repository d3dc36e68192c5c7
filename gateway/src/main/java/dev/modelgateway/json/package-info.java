/**
 * Jackson helpers: one ObjectMapper, parsing that fails with a 400, typed field reads.
 *
 * <p>May import error. Pure.
 */
package dev.modelgateway.json;
