import { usesIamAuthentication, type Destination } from '@herald/model';
import type { SecretBox } from './secret-box.js';

/** The secret fields of each destination kind (§2.4: "partially hidden on retrieval"). */
function mapSecrets(destination: Destination, transform: (value: string) => string): Destination {
  switch (destination.type) {
    case 'SQS':
    case 'SNS':
      // IAM: Herald's own credentials, none stored with the destination.
      if (usesIamAuthentication(destination)) return destination;
      return { ...destination, accessSecret: transform(destination.accessSecret) };
    case 'EventGrid':
      return { ...destination, accessKey: transform(destination.accessKey) };
    case 'ProviderBServiceBus':
      return { ...destination, connectionString: transform(destination.connectionString) };
    case 'EventBridge':
    case 'ProviderCPubSub':
      return destination;
  }
}

/** The destination as stored: secrets sealed. */
export function sealDestination(destination: Destination, box: SecretBox): Destination {
  return mapSecrets(destination, (value) => box.seal(value));
}

/** The destination as the adapters need it: secrets opened. */
export function openDestination(destination: Destination, box: SecretBox): Destination {
  return mapSecrets(destination, (value) => box.open(value));
}
