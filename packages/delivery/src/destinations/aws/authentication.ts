import { AWS_AUTHENTICATION_MODES, type AwsAuthentication, type SnsDestination, type SqsDestination } from '@herald/model';
import type { FieldChecker } from '../field-checker.js';

/**
 * SQS/SNS authentication of a draft (reference type AwsAuthenticationMode): `Credentials`, the
 * default, requires the keys; `IAM` sends with Herald's own AWS identity and takes no keys, since
 * keys given beside it would be stored and never used.
 */
export function checkAwsAuthentication(fields: FieldChecker): AwsAuthentication {
  const mode = fields.raw('authenticationMode') ?? 'Credentials';
  if (mode === 'Credentials') return { accessKey: fields.string('accessKey'), accessSecret: fields.secret('accessSecret'), authenticationMode: 'Credentials' };
  if (mode !== 'IAM') {
    fields.check(false, `destination.authenticationMode: must be one of ${AWS_AUTHENTICATION_MODES.join(', ')} (got ${JSON.stringify(mode)}).`);
    return { authenticationMode: 'IAM' };
  }
  for (const field of ['accessKey', 'accessSecret']) {
    // Never echoed: the value may be a secret.
    const value = fields.raw(field);
    fields.check(value === undefined || value === null, `destination.${field}: must not be set with authenticationMode IAM.`);
  }
  return { authenticationMode: 'IAM' };
}

/** Destinations stored before `authenticationMode` existed answer the reference type's default. */
export function answerAwsAuthentication<D extends SqsDestination | SnsDestination>(destination: D): D {
  return destination.authenticationMode === undefined ? { ...destination, authenticationMode: 'Credentials' } : destination;
}
