package dev.modelgateway.config;

/**
 * One deployment on a cloud: its provider's account, which of the provider's APIs it calls, and what its model can
 * do (declared, never guessed from the model's id: docs/clouds.md, "Capabilities").
 */
public record CloudTarget(CloudAccount account, DeploymentApi api, Capabilities capabilities) {
}
