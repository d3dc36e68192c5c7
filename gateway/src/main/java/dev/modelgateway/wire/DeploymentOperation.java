package dev.modelgateway.wire;

/**
 * What an operation of an endpoint without {@code platform_options} is on the deployment chosen for it, which
 * {@link Operations} decides from the deployment's provider (its vendor's own API or a cloud, docs/clouds.md): one
 * vendor request ({@link VendorOperation}), several requests of one operation answered to the caller as one
 * ({@link FannedOperation}), or the gateway's own answer ({@link LocalAnswer}). {@code call/OperationCall} runs each
 * the same way: admitted, chosen, recorded once. Pure.
 */
public sealed interface DeploymentOperation permits VendorOperation, FannedOperation, LocalAnswer {
}
