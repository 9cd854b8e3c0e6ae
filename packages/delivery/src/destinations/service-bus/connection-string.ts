/** The parts of a Service Bus connection string Herald reads (`Key=Value;…`, keys case-insensitive). */
export interface ServiceBusConnectionParts {
  endpoint?: string;
  sharedAccessKeyName?: string;
  sharedAccessKey?: string;
  entityPath?: string;
}

/** A Map, so a segment named like an Object.prototype member (`constructor=x`) is just unknown. */
const KNOWN_KEYS = new Map<string, keyof ServiceBusConnectionParts>([
  ['endpoint', 'endpoint'],
  ['sharedaccesskeyname', 'sharedAccessKeyName'],
  ['sharedaccesskey', 'sharedAccessKey'],
  ['entitypath', 'entityPath'],
]);

export function parseServiceBusConnectionString(connectionString: string): ServiceBusConnectionParts {
  const parts: ServiceBusConnectionParts = {};
  for (const segment of connectionString.split(';')) {
    const separator = segment.indexOf('=');
    if (separator <= 0) continue;
    const key = KNOWN_KEYS.get(segment.slice(0, separator).trim().toLowerCase());
    // Values may contain '=' (base64 keys end with it): split at the first one only.
    if (key !== undefined) parts[key] = segment.slice(separator + 1).trim();
  }
  return parts;
}

/** Replaces the value of `SharedAccessKey=` (keeping its first 4 characters) for API responses. */
export function maskConnectionStringKey(connectionString: string, mask: (secret: string) => string): string {
  return connectionString
    .split(';')
    .map((segment) => {
      const separator = segment.indexOf('=');
      if (separator <= 0 || segment.slice(0, separator).trim().toLowerCase() !== 'sharedaccesskey') return segment;
      return `${segment.slice(0, separator + 1)}${mask(segment.slice(separator + 1))}`;
    })
    .join(';');
}
