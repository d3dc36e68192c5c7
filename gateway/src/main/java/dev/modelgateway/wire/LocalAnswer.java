package dev.modelgateway.wire;

import io.vertx.core.buffer.Buffer;

import java.util.function.Supplier;

/**
 * The gateway answers the operation itself on the chosen deployment, calling no vendor: a token count of a model whose
 * API counts none (vendors B, C and D on their own APIs, a Bedrock model CountTokens does not know), with no usage.
 *
 * @param json the caller's JSON body; it may decode the whole caller body, so the runner calls it beside the event
 *             loop when the body is large; it throws a {@code GatewayException} naming the field the body gets wrong
 */
public record LocalAnswer(Supplier<Buffer> json) implements DeploymentOperation {
}
