import type { DestinationType, Format } from '@herald/model';
import { DESTINATIONS } from '../destinations/registry.js';

export type FormatValidation = { ok: true; format: Format } | { ok: false; errors: string[] };

/**
 * §2.4 Format: `Platform` (the default when absent) or `CloudEvents` with `cloudEventsVersion`
 * `1.0` (0.1 is deprecated and not produced). With a destination type, also checks that the
 * destination accepts the format (its descriptor's `formats`; Event Grid: CloudEvents only).
 */
export function validateFormat(input: unknown, destinationType?: DestinationType): FormatValidation {
  const parsed = parseFormat(input);
  if (!parsed.ok || destinationType === undefined) return parsed;
  const accepted = DESTINATIONS[destinationType].formats;
  if (!accepted.includes(parsed.format.type)) {
    return {
      ok: false,
      errors: [`Destination type '${destinationType}' supports only the format(s) ${accepted.join(', ')}.`],
    };
  }
  return parsed;
}

function parseFormat(input: unknown): FormatValidation {
  if (input === undefined || input === null) return { ok: true, format: { type: 'Platform' } };
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: ['format must be an object with a type.'] };
  }
  const { type, cloudEventsVersion } = input as Record<string, unknown>;
  if (type === 'Platform') return { ok: true, format: { type: 'Platform' } };
  if (type === 'CloudEvents') {
    if (cloudEventsVersion === '1.0') return { ok: true, format: { type: 'CloudEvents', cloudEventsVersion: '1.0' } };
    return {
      ok: false,
      errors: [`format.cloudEventsVersion must be '1.0' (got ${JSON.stringify(cloudEventsVersion ?? null)}).`],
    };
  }
  return { ok: false, errors: [`format.type must be 'Platform' or 'CloudEvents' (got ${JSON.stringify(type ?? null)}).`] };
}
