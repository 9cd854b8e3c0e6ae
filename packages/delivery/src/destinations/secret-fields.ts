import type { Destination } from '@herald/model';
import type { SecretField } from './descriptor.js';
import { descriptorOf } from './registry.js';

/**
 * The destination with each secret field its descriptor names replaced by `transform`; a field the
 * destination does not hold (SQS/SNS keys in IAM mode) is skipped. Without secrets to replace, the
 * destination itself is answered.
 */
export function mapSecretFields<D extends Destination>(destination: D, transform: (value: string, secret: SecretField) => string): D {
  const fields: Readonly<Record<string, unknown>> = { ...destination };
  const replaced: Record<string, string> = {};
  for (const secret of descriptorOf(destination.type).secretFields) {
    const value = fields[secret.field];
    if (typeof value === 'string') replaced[secret.field] = transform(value, secret);
  }
  return Object.keys(replaced).length === 0 ? destination : { ...destination, ...replaced };
}
