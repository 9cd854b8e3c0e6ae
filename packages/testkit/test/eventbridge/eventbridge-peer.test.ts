import { EventBridgeClient, PutPartnerEventsCommand, type PutPartnerEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entrySize, MAX_ENTRY_BYTES, startEventBridgePeer, type EventBridgePeer } from '../../src/peers/eventbridge/index.js';

const ACCESS_KEY_ID = 'AKIAHERALDTEST000001';
const SOURCE = 'aws.partner/herald.example/project-1/orders';

let peer: EventBridgePeer;

beforeEach(async () => {
  peer = await startEventBridgePeer({ accessKeyId: ACCESS_KEY_ID });
});
afterEach(async () => {
  await peer.stop();
});

function client(accessKeyId = ACCESS_KEY_ID): EventBridgeClient {
  // maxAttempts 1: the SDK retries throttling and 5xx itself, which would hide the peer's answer.
  return new EventBridgeClient({
    endpoint: peer.endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId, secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
}

const entry = (id: string, detail: object = { id }): PutPartnerEventsRequestEntry => ({
  Time: new Date('2026-01-02T03:04:05Z'),
  Source: SOURCE,
  DetailType: 'OrderCreated',
  Detail: JSON.stringify(detail),
  Resources: [`arn:herald:orders/${id}`],
});

const put = (entries: PutPartnerEventsRequestEntry[], eventBridge = client()) => eventBridge.send(new PutPartnerEventsCommand({ Entries: entries }));

/** Runs `action`, which must fail, and returns what it threw. */
async function failure(action: () => Promise<unknown>): Promise<Error & { $metadata?: { httpStatusCode?: number }; code?: string }> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('EventBridge peer with the real EventBridgeClient', () => {
  it('receives a single entry intact', async () => {
    const detail = { id: 'o-1', total: { cents: 1250, currency: 'EUR' }, note: 'grüße ✓' };
    const output = await put([entry('o-1', detail)]);

    expect(output.FailedEntryCount).toBe(0);
    const [event] = await peer.waitFor(1);
    expect(event).toEqual({
      EventId: output.Entries?.[0]?.EventId,
      Time: new Date('2026-01-02T03:04:05Z'),
      Source: SOURCE,
      DetailType: 'OrderCreated',
      Detail: detail,
      Resources: ['arn:herald:orders/o-1'],
    });
  });

  it('receives a batch of 20 in one call, in order, with one id per entry', async () => {
    const entries = Array.from({ length: 20 }, (_, i) => entry(`b-${i}`));
    const output = await put(entries);

    expect(output.FailedEntryCount).toBe(0);
    const events = await peer.waitFor(20);
    expect(events.map((event) => event.Detail)).toEqual(entries.map((e) => JSON.parse(e.Detail ?? '')));
    expect(output.Entries?.map((result) => result.EventId)).toEqual(events.map((event) => event.EventId));
    expect(peer.batchSizes).toEqual([20]);
  });

  it('refuses more than 20 entries with a ValidationException', async () => {
    const error = await failure(() => put(Array.from({ length: 21 }, (_, i) => entry(`x-${i}`))));
    expect(error.name).toBe('ValidationException');
    expect(error.$metadata?.httpStatusCode).toBe(400);
    expect(peer.received).toHaveLength(0);
  });

  it('reports partial failures per entry and accepts a resend of only the failed entries', async () => {
    const entries = [entry('p-0'), entry('p-1'), entry('p-2'), entry('p-3')];
    peer.failEntries([1, 3]);
    const first = await put(entries);

    expect(first.FailedEntryCount).toBe(2);
    expect(first.Entries?.[0]?.EventId).toBeTypeOf('string');
    expect(first.Entries?.[1]).toMatchObject({ ErrorCode: 'InternalFailure' });
    expect(first.Entries?.[1]?.EventId).toBeUndefined();
    expect(first.Entries?.[3]).toMatchObject({ ErrorCode: 'InternalFailure' });

    const failed = entries.filter((_, i) => first.Entries?.[i]?.ErrorCode !== undefined);
    const second = await put(failed);
    expect(second.FailedEntryCount).toBe(0);
    const events = await peer.waitFor(4);
    expect(events.map((event) => (event.Detail as { id: string }).id)).toEqual(['p-0', 'p-2', 'p-1', 'p-3']);
  });

  it('fails an entry over 256 KB on its own, sized by the documented formula', async () => {
    // The User Guide's formula: Time counts 14 bytes; Source, DetailType, Detail and each Resource
    // their UTF-8 bytes. Computed here independently of the peer's own entrySize().
    const base = entry('big');
    const fixed = 14 + SOURCE.length + 'OrderCreated'.length + 'arn:herald:orders/big'.length;
    const detailOf = (bytes: number) => JSON.stringify({ pad: 'a'.repeat(bytes - '{"pad":""}'.length) });
    const exactly = { ...base, Detail: detailOf(MAX_ENTRY_BYTES - fixed) };
    const oneOver = { ...base, Detail: detailOf(MAX_ENTRY_BYTES - fixed + 1) };
    expect(entrySize({ ...exactly, Time: 0 })).toBe(MAX_ENTRY_BYTES);

    const output = await put([oneOver, entry('small')]);
    expect(output.FailedEntryCount).toBe(1);
    expect(output.Entries?.[0]).toMatchObject({ ErrorCode: 'InvalidArgument' });
    expect(output.Entries?.[1]?.EventId).toBeTypeOf('string');

    const atLimit = await put([exactly]);
    expect(atLimit.FailedEntryCount).toBe(0);
  });

  it('counts multi-byte characters in UTF-8 bytes', async () => {
    const base = entry('utf8');
    const fixed = 14 + SOURCE.length + 'OrderCreated'.length + 'arn:herald:orders/utf8'.length + '{"pad":""}'.length;
    // '€' is 3 bytes in UTF-8 but one UTF-16 unit: a size check in characters would let this pass.
    const euros = Math.floor((MAX_ENTRY_BYTES - fixed) / 3) + 1;
    const output = await put([{ ...base, Detail: JSON.stringify({ pad: '€'.repeat(euros) }) }]);
    expect(output.Entries?.[0]).toMatchObject({ ErrorCode: 'InvalidArgument' });
  });

  it('refuses a call whose entries together exceed 256 KB', async () => {
    const half = (id: string) => entry(id, { id, pad: 'a'.repeat(MAX_ENTRY_BYTES / 2) });
    const error = await failure(() => put([half('h-1'), half('h-2')]));
    expect(error.name).toBe('ValidationException');
    expect(error.message).toBe('Total size of the entries in the request is over the limit.');
  });

  it('fails entries whose Detail is not a JSON object', async () => {
    const output = await put([
      { ...entry('m-1'), Detail: '{not json' },
      { ...entry('m-2'), Detail: '[1,2]' },
    ]);
    expect(output.Entries?.map((result) => result.ErrorCode)).toEqual(['MalformedDetail', 'MalformedDetail']);
  });

  it('fails entries whose source is not a registered partner event source', async () => {
    peer.createPartnerEventSource(SOURCE);
    const output = await put([entry('s-1'), { ...entry('s-2'), Source: 'aws.partner/herald.example/project-1/unknown' }]);
    expect(output.Entries?.[0]?.EventId).toBeTypeOf('string');
    expect(output.Entries?.[1]).toMatchObject({ ErrorCode: 'NotAuthorizedForSourceException' });

    peer.deletePartnerEventSource(SOURCE);
    const afterDelete = await put([entry('s-3')]);
    expect(afterDelete.Entries?.[0]).toMatchObject({ ErrorCode: 'NotAuthorizedForSourceException' });
  });

  it('refuses a request signed with another access key id', async () => {
    const error = await failure(() => put([entry('k-1')], client('AKIAWRONGKEY00000000')));
    expect(error.name).toBe('UnrecognizedClientException');
    expect(error.$metadata?.httpStatusCode).toBe(400);
  });

  describe('faults', () => {
    it.each([
      ['unknown-entity', 'ResourceNotFoundException', 400],
      ['bad-credentials', 'AccessDeniedException', 400],
      ['throttled', 'ThrottlingException', 400],
      ['server-error', 'InternalException', 500],
    ] as const)('%s surfaces as %s (HTTP %i)', async (kind, name, status) => {
      peer.faults.inject({ kind }, 1);
      const error = await failure(() => put([entry('f-1')]));
      expect(error.name).toBe(name);
      expect(error.$metadata?.httpStatusCode).toBe(status);

      // The fault applied once; the next call goes through.
      expect((await put([entry('f-2')])).FailedEntryCount).toBe(0);
    });

    it('payload-too-large fails every entry of the call', async () => {
      peer.faults.inject({ kind: 'payload-too-large' }, 1);
      const output = await put([entry('t-1'), entry('t-2')]);
      expect(output.FailedEntryCount).toBe(2);
      expect(output.Entries?.map((result) => result.ErrorCode)).toEqual(['InvalidArgument', 'InvalidArgument']);
      expect(peer.received).toHaveLength(0);
    });

    it('drop-connection surfaces as a connection reset', async () => {
      peer.faults.inject({ kind: 'drop-connection' }, 1);
      const error = await failure(() => put([entry('d-1')]));
      expect(error.code).toBe('ECONNRESET');
      expect(peer.received).toHaveLength(0);
    });

    it('hang leaves the call unanswered until the client times out', async () => {
      peer.faults.inject({ kind: 'hang' }, 1);
      const impatient = new EventBridgeClient({
        endpoint: peer.endpoint,
        region: 'eu-west-1',
        credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: 'secret' },
        maxAttempts: 1,
        // Without throwOnRequestTimeout this handler version only logs a warning and keeps waiting.
        requestHandler: { requestTimeout: 300, throwOnRequestTimeout: true },
      });
      const error = await failure(() => put([entry('h-1')], impatient));
      expect(error.name).toBe('TimeoutError');
      expect(peer.received).toHaveLength(0);
      expect((await put([entry('h-2')])).FailedEntryCount).toBe(0);
    });
  });
});
