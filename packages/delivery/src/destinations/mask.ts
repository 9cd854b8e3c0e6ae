import type { Destination } from '@herald/model';
import { looksSealed } from '../secrets/secret-box.js';
import { maskSecret } from './mask-secret.js';
import { mapSecretFields } from './secret-fields.js';

/**
 * §2.4: secrets are partially hidden on retrieval — each field the destination's descriptor names
 * as secret (the SQS/SNS `accessSecret`, the Event Grid `accessKey`, the `SharedAccessKey` inside a
 * Service Bus connection string). Used for every API response that contains a destination; always
 * a copy.
 */
export function maskDestinationSecrets(destination: Destination): Destination {
  // A value still sealed (its HERALD_SECRET_KEY was rotated away or removed) has no parts to find:
  // the whole ciphertext is the secret, answered as `enc:****`.
  return { ...mapSecretFields(destination, (value, { mask = maskSecret }) => (looksSealed(value) ? maskSecret(value) : mask(value))) };
}
