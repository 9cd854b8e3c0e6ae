import type { Destination } from '@herald/model';
import { mapSecretFields } from '../destinations/secret-fields.js';
import type { SecretBox } from './secret-box.js';

/** The destination as stored: the secret fields its descriptor names, sealed. */
export function sealDestination(destination: Destination, box: SecretBox): Destination {
  return mapSecretFields(destination, (value) => box.seal(value));
}

/** The destination as the adapters need it: secrets opened. */
export function openDestination(destination: Destination, box: SecretBox): Destination {
  return mapSecretFields(destination, (value) => box.open(value));
}
