import { usesIamAuthentication, type SnsDestination, type SqsDestination } from '@herald/model';

/**
 * The `credentials` option of an SQS or SNS client, spread into its configuration:
 * - `Credentials` mode: the destination's own keys;
 * - `IAM` mode: none, so the SDK resolves Herald's own identity through its default provider chain
 *   (environment variables, shared config and credentials files with AWS_PROFILE, web identity
 *   token, SSO, credential process, then the container or instance role; see docs/operations.md).
 *   The chain is resolved on the first request and refreshed by the SDK before temporary
 *   credentials expire; a chain that finds nothing fails the send with CredentialsProviderError.
 */
export function awsClientCredentials(destination: SqsDestination | SnsDestination): { credentials?: { accessKeyId: string; secretAccessKey: string } } {
  if (usesIamAuthentication(destination)) return {};
  return { credentials: { accessKeyId: destination.accessKey, secretAccessKey: destination.accessSecret } };
}
