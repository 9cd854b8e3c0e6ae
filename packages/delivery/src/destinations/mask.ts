import { usesIamAuthentication, type Destination } from '@herald/model';
import { looksSealed } from '../secrets/index.js';
import { maskConnectionStringKey } from './service-bus/connection-string.js';

/** Characters of a secret left visible, so users can tell which key is configured. */
const VISIBLE_PREFIX = 4;

/** `abcdefgh` → `abcd****`; short values are hidden entirely. Idempotent. */
export function maskSecret(secret: string): string {
  return secret.length <= VISIBLE_PREFIX ? '****' : `${secret.slice(0, VISIBLE_PREFIX)}****`;
}

/**
 * §2.4: secrets are partially hidden on retrieval — the SQS/SNS `accessSecret`, the Event Grid
 * `accessKey` and the `SharedAccessKey` inside a Service Bus connection string. Used for every API
 * response that contains a destination.
 */
export function maskDestinationSecrets(destination: Destination): Destination {
  switch (destination.type) {
    case 'SQS':
    case 'SNS':
      // IAM: no secret of the destination's own to hide.
      if (usesIamAuthentication(destination)) return { ...destination };
      return { ...destination, accessSecret: maskSecret(destination.accessSecret) };
    case 'EventGrid':
      return { ...destination, accessKey: maskSecret(destination.accessKey) };
    case 'ProviderBServiceBus':
      // A connection string still sealed (its HERALD_SECRET_KEY was rotated away or removed) has no
      // SharedAccessKey segment to find: the whole ciphertext is the secret, answered as `enc:****`.
      return {
        ...destination,
        connectionString: looksSealed(destination.connectionString)
          ? maskSecret(destination.connectionString)
          : maskConnectionStringKey(destination.connectionString, maskSecret),
      };
    case 'EventBridge':
    case 'ProviderCPubSub':
      return { ...destination };
  }
}
