/**
 * AWS credentials and SigV4 (docs/clouds.md, "AWS credentials"): a provider's {@code aws} block
 * ({@link dev.modelgateway.credentials.aws.AwsCredentialsSettings}), the sources built from the AWS SDK for Java v2's
 * credential providers ({@link dev.modelgateway.credentials.aws.AwsCredentialSources}, fetched on worker threads
 * through {@link dev.modelgateway.credentials.RefreshingCredential}, one per identity:
 * {@link dev.modelgateway.credentials.aws.AwsCredentialCache}), the choice between an API key as a bearer token and
 * SigV4 ({@link dev.modelgateway.credentials.aws.AwsAuth}), and the signature of one request
 * ({@link dev.modelgateway.credentials.aws.AwsSigning}: CPU only, safe on an event loop). Imports {@code config} and
 * {@code credentials} of ours, and the AWS SDK.
 */
package dev.modelgateway.credentials.aws;
