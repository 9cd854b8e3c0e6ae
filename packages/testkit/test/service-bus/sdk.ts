import { createHmac } from 'node:crypto';
import { ServiceBusClient, type ServiceBusClientOptions } from '@azure/service-bus';
import type { ServiceBusPeer } from '../../src/peers/service-bus/index.js';

/** Test helpers around the real `@azure/service-bus` client. */

export const retryOptions = { maxRetries: 0, timeoutInMs: 5_000 };

export interface SdkError {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly retryable?: boolean;
}

/** Opens clients and closes them all at the end of a test. */
export class Clients {
  private readonly open: ServiceBusClient[] = [];

  connect(connectionString: string, options: ServiceBusClientOptions = {}): ServiceBusClient {
    const client = new ServiceBusClient(connectionString, { ...options, retryOptions: { ...retryOptions, ...options.retryOptions } });
    this.open.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((client) => client.close().catch(() => undefined)));
  }
}

/** Runs `action`, which must fail, and returns the SDK's error (the last one of an AggregateError). */
export async function sdkError(action: () => Promise<unknown>): Promise<SdkError> {
  try {
    await action();
  } catch (error) {
    // After several failed attempts the SDK throws an AggregateError; the last error is the story.
    return (error instanceof AggregateError ? error.errors.at(-1) : error) as SdkError;
  }
  throw new Error('expected the SDK call to fail');
}

/** A SAS token built independently of the SDK, to test expiry and scope. */
export function sasToken(resource: string, keyName: string, key: string, expiresAtSeconds: number): string {
  const encodedResource = encodeURIComponent(resource);
  const signature = createHmac('sha256', key).update(`${encodedResource}\n${expiresAtSeconds}`).digest('base64');
  return `SharedAccessSignature sr=${encodedResource}&sig=${encodeURIComponent(signature)}&se=${expiresAtSeconds}&skn=${keyName}`;
}

export function sasConnectionString(peer: ServiceBusPeer, token: string): string {
  return `Endpoint=${peer.endpoint};SharedAccessSignature=${token};UseDevelopmentEmulator=true`;
}
