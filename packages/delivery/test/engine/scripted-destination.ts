import type { DeliveryPayload, Destination } from '@herald/model';
import { DocumentStore } from '@herald/store';
import { startPostgres, type RunningService } from '@herald/testkit';
import type { DestinationAdapterSource } from '../../src/engine/adapters.js';
import type { DestinationAdapter, EncodedMessage, SendOptions, SendOutcome } from '../../src/destinations/port.js';
import { DELIVERED } from '../../src/destinations/port.js';
import { createProject, createSqsSubscription, openTestDatabase, type ManualClock, type TestDatabase } from './support.js';

export { ManualClock, HOUR, silentLogger, writeStores } from './support.js';

/** One PostgreSQL 15 server per test file. */
export async function startServer(): Promise<RunningService> {
  return startPostgres();
}

export async function freshDatabase(server: RunningService): Promise<TestDatabase> {
  return openTestDatabase(server.url);
}

export type SendBehaviour = (messages: readonly EncodedMessage[], options?: SendOptions) => Promise<SendOutcome[]>;

/**
 * A scripted destination: records every message it is asked to send (by id), answers as
 * `behaviour` says (delivered by default).
 */
export class ScriptedAdapter implements DestinationAdapter, DestinationAdapterSource {
  readonly type = 'SQS' as const;
  readonly limits = { maxMessageBytes: 262_144, maxBatchEntries: 10, maxBatchBytes: 262_144 };
  readonly sent: string[] = [];
  behaviour: SendBehaviour = async (messages) => messages.map(() => DELIVERED);

  get(_destination: Destination): DestinationAdapter {
    return this;
  }

  encode(payload: DeliveryPayload): { ok: true; message: EncodedMessage } {
    const id = JSON.stringify(payload);
    return { ok: true, message: { id, native: payload, sizeBytes: 10, payloadNotIncluded: false } };
  }

  async send(messages: readonly EncodedMessage[], options?: SendOptions): Promise<SendOutcome[]> {
    for (const m of messages) this.sent.push(m.id);
    return this.behaviour(messages, options);
  }

  async verify(): Promise<{ ok: true }> {
    return { ok: true };
  }

  async close(): Promise<void> {}
}

/** A project with one subscription to every store change and message. */
export async function projectWithSubscription(
  database: TestDatabase,
  clock: ManualClock,
  projectKey: string,
  environment: 'production' | 'development' = 'production',
): Promise<{ documents: DocumentStore; subscriptionId: string }> {
  await createProject(database.db, clock, projectKey, environment);
  const documents = new DocumentStore(database.db, clock);
  const subscription = await createSqsSubscription(
    documents,
    projectKey,
    { queueUrl: 'http://127.0.0.1:1/000000000000/q', region: 'us-east-1' },
    { changes: [{ resourceTypeId: 'store' }] },
  );
  return { documents, subscriptionId: subscription.id };
}

/** A promise and its resolver. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
