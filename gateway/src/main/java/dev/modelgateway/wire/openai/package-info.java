/**
 * Vendor B's wire formats, one sub-package each: chat completions, the Responses API, and the media
 * endpoints.
 *
 * <p>See the sub-packages.
 */
package dev.modelgateway.wire.openai;
