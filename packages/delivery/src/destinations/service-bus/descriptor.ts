import { defineDestination, EVERY_FORMAT } from '../descriptor.js';
import type { FieldChecker } from '../field-checker.js';
import { maskSecret } from '../mask-secret.js';
import { createServiceBusAdapter } from './adapter.js';
import { maskConnectionStringKey, parseServiceBusConnectionString } from './connection-string.js';
import { SERVICE_BUS_LIMITS } from './encode.js';

/** §2.4 ProviderBServiceBus: a connection string whose EntityPath names the queue or topic. */
export const SERVICE_BUS_DESTINATION = defineDestination({
  type: 'ProviderBServiceBus',
  aliases: ['AzureServiceBus'],
  normalize: (fields) => ({ type: 'ProviderBServiceBus', connectionString: checkConnectionString(fields) }),
  // The whole string is sealed; only its SharedAccessKey segment is hidden in answers.
  secretFields: [{ field: 'connectionString', mask: (value) => maskConnectionStringKey(value, maskSecret) }],
  formats: EVERY_FORMAT,
  limits: SERVICE_BUS_LIMITS,
  createAdapter: createServiceBusAdapter,
});

function checkConnectionString(fields: FieldChecker): string {
  const connectionString = fields.secret('connectionString');
  if (connectionString === '') return connectionString;
  const parts = parseServiceBusConnectionString(connectionString);
  fields.check(parts.endpoint !== undefined, 'destination.connectionString: Endpoint is missing.');
  fields.check(
    parts.entityPath !== undefined && parts.entityPath !== '',
    'destination.connectionString: EntityPath is missing; it must name the queue or topic.',
  );
  fields.check(
    parts.sharedAccessKeyName !== undefined && parts.sharedAccessKey !== undefined,
    'destination.connectionString: SharedAccessKeyName and SharedAccessKey are required.',
  );
  return connectionString;
}
