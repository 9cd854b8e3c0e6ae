import type { Destination } from '@herald/model';
import { FieldChecker } from './field-checker.js';
import { allDestinations, descriptorOf, destinationTypeNamed } from './registry.js';

export type DestinationValidation = { ok: true; destination: Destination } | { ok: false; errors: string[] };

/**
 * Validates a destination from an API draft: maps the SDK aliases (`AzureServiceBus`,
 * `GoogleCloudPubSub`) to the spec's names and checks the kind's fields by its descriptor (§2.4).
 * The errors are ready for a 400 response.
 */
export function normalizeDestination(input: unknown): DestinationValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: ['destination: an object with a type is required.'] };
  }
  const fields = input as Readonly<Record<string, unknown>>;
  const rawType = fields.type;
  const type = typeof rawType === 'string' ? destinationTypeNamed(rawType) : undefined;
  if (type === undefined) {
    const known = allDestinations().map((descriptor) => descriptor.type);
    return { ok: false, errors: [`destination.type: must be one of ${known.join(', ')} (got ${JSON.stringify(rawType ?? null)}).`] };
  }
  const checker = new FieldChecker(fields);
  const destination = descriptorOf(type).normalize(checker);
  return checker.errors.length === 0 ? { ok: true, destination } : { ok: false, errors: checker.errors };
}
