import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Variables through which the AWS SDK's default chain could find other credentials. */
const OTHER_SOURCES = [
  'AWS_PROFILE',
  'AWS_SESSION_TOKEN',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_ROLE_ARN',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
];

/**
 * The process environment for a test of the AWS SDK's default credential chain (IAM-mode
 * destinations): only the given key pair, or none at all. The shared config files point at
 * nothing and the instance metadata service is off (it is not on loopback). Values of `undefined`
 * mean "unset"; a test applies them with `vi.stubEnv`.
 */
export function awsChainOnlyEnvironment(credentials: { accessKeyId: string; secretAccessKey: string } | undefined): Record<string, string | undefined> {
  const nowhere = join(tmpdir(), 'herald-no-aws-config');
  return {
    AWS_SHARED_CREDENTIALS_FILE: nowhere,
    AWS_CONFIG_FILE: nowhere,
    AWS_EC2_METADATA_DISABLED: 'true',
    ...Object.fromEntries(OTHER_SOURCES.map((name) => [name, undefined])),
    AWS_ACCESS_KEY_ID: credentials?.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials?.secretAccessKey,
  };
}
