import { describe, expect, it } from 'vitest';
import type { EncodedMessage } from '../../src/destinations/port.js';
import { createDestinationEnvironment } from '../../src/index.js';
import { failure } from '../../src/destinations/failure.js';
import { planBatches, sendWithResends, type EntryResult } from '../../src/destinations/send-loop.js';

const limits = { maxMessageBytes: 100, maxBatchEntries: 3, maxBatchBytes: 100 };
const message = (id: string, sizeBytes = 10): EncodedMessage<string> => ({ id, native: id, sizeBytes, payloadNotIncluded: false });

describe('planBatches', () => {
  it('splits by entry count and by summed bytes', () => {
    expect(planBatches([10, 10, 10, 10], limits)).toEqual([[0, 1, 2], [3]]);
    expect(planBatches([60, 30, 20, 90], limits)).toEqual([[0, 1], [2], [3]]);
  });
});

/**
 * The send loop through our own port (a scripted RequestSender, not an SDK mock): per-entry
 * temporary failures are resent a bounded number of times, other failures never.
 */
describe('sendWithResends', () => {
  const env = createDestinationEnvironment({ resend: { maxImmediateResends: 2 }, maxConcurrentRequests: 1 });

  it('resends a persistently failing entry at most maxImmediateResends times, and keeps its last failure', async () => {
    const requests: string[][] = [];
    const outcomes = await sendWithResends([message('a'), message('b')], undefined, env, limits, {
      classify: () => failure('temporary', 'X', 'x'),
      sendRequest: (messages) => {
        requests.push(messages.map((m) => m.native));
        return Promise.resolve(
          messages.map((m): EntryResult =>
            m.native === 'b' ? { status: 'failed', failure: failure('temporary', 'InternalError', 'busy'), resendable: true } : { status: 'delivered' },
          ),
        );
      },
    });
    expect(requests).toEqual([['a', 'b'], ['b'], ['b']]);
    expect(outcomes).toEqual([{ status: 'delivered' }, { status: 'failed', failure: { class: 'temporary', code: 'InternalError', message: 'busy' } }]);
  });

  it('does not resend entries whose failure is not a temporary per-entry error', async () => {
    let calls = 0;
    const outcomes = await sendWithResends([message('a')], undefined, env, limits, {
      classify: () => failure('temporary', 'X', 'x'),
      sendRequest: () => {
        calls += 1;
        return Promise.resolve([{ status: 'failed', failure: failure('payload', 'InvalidMessageContents', 'bad'), resendable: false }]);
      },
    });
    expect(calls).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: 'failed', failure: { class: 'payload' } });
  });

  it('splits a request refused as a whole for its payload until the refused entry stands alone', async () => {
    const requests: string[][] = [];
    const outcomes = await sendWithResends([message('a'), message('b'), message('c')], undefined, env, limits, {
      classify: (error) => failure('payload', 'INVALID_ARGUMENT', String(error)),
      sendRequest: (messages) => {
        requests.push(messages.map((m) => m.native));
        return messages.some((m) => m.native === 'b') ? Promise.reject(new Error('invalid')) : Promise.resolve(messages.map(() => ({ status: 'delivered' })));
      },
    });
    expect(requests).toEqual([['a', 'b', 'c'], ['a', 'b'], ['a'], ['b'], ['c']]);
    expect(outcomes.map((o) => (o.status === 'failed' ? o.failure.code : o.status))).toEqual(['delivered', 'INVALID_ARGUMENT', 'delivered']);
  });

  it('a whole-request error fails every entry of that request with its classification', async () => {
    const outcomes = await sendWithResends([message('a'), message('b'), message('c'), message('d')], undefined, env, limits, {
      classify: (error) => failure('configuration', 'Denied', String(error)),
      sendRequest: (messages) => (messages.length === 3 ? Promise.reject(new Error('denied')) : Promise.resolve([{ status: 'delivered' }])),
    });
    expect(outcomes.map((o) => (o.status === 'failed' ? o.failure.code : o.status))).toEqual(['Denied', 'Denied', 'Denied', 'delivered']);
  });
});
