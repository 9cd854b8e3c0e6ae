import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Format } from '@herald/model';
import { entrySize, startEventBridgePeer, type EventBridgePeer } from '@herald/testkit';
import { DEFAULT_PARTNER_NAME } from '../../src/destinations/environment.js';
import { partnerEventSourceName } from '../../src/destinations/eventbridge/source-name.js';
import type { DestinationAdapter, EncodedMessage } from '../../src/destinations/port.js';
import { formatDelivery } from '../../src/format/formatted.js';
import { createDestinationEnvironment, DestinationPool } from '../../src/index.js';
import { messagePayload, oversizedMessage, PROJECT_KEY } from './support/payloads.js';

/**
 * EventBridge rules the testkit peer does not enforce the way the service documents them.
 *
 * 1. Entry size. "Calculating Amazon EventBridge PutEvents event entry size" (EventBridge User
 *    Guide, https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-putevent-size.html, which
 *    the PutPartnerEvents API reference points to for sizing): "The total entry size must be less
 *    than 256KB"; Time counts 14 bytes, Source/DetailType/Detail/Resources their UTF-8 bytes. The
 *    peer refuses only entries *over* 262,144 bytes (`entrySize(entry) > MAX_ENTRY_BYTES`), and
 *    Herald measures with `sizeBytes <= maxMessageBytes` (encode-pipeline.ts), so an entry of
 *    exactly 262,144 bytes goes out in full instead of as payload-not-included.
 *
 * 2. Per-entry error codes. PutEventsResultEntry / PutPartnerEventsResultEntry `ErrorCode`
 *    (API reference, https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEventsResultEntry.html)
 *    lists `InvalidAccountIdException` ("The account ID provided is not valid") as non-retryable:
 *    a destination configuration error, not a property of the event. Herald's table
 *    (eventbridge/classify.ts) does not know it, so `classifyEntry` (adapter.ts) defaults it to
 *    `payload`: every delivery is dropped one by one as undeliverable, and the subscription never
 *    enters ConfigurationError. The peer never produces the code on its own (it has no notion of
 *    accounts), so the conformance suite cannot see it.
 */
const ACCESS_KEY_ID = 'AKIAHERALDPARTNER001';
const SUBSCRIPTION_ID = '5f0e5a43-0000-4000-8000-00000000e001';
const PLATFORM: Format = { type: 'Platform' };
const ENTRY_LIMIT_BYTES = 262_144;

describe('EventBridge adapter against documented PutPartnerEvents rules', () => {
  let peer: EventBridgePeer;
  let pool: DestinationPool;
  let adapter: DestinationAdapter;
  const source = partnerEventSourceName(DEFAULT_PARTNER_NAME, PROJECT_KEY, SUBSCRIPTION_ID);

  beforeAll(async () => {
    peer = await startEventBridgePeer({ accessKeyId: ACCESS_KEY_ID, partnerEventSources: [source] });
    pool = new DestinationPool(
      createDestinationEnvironment({
        endpoints: { eventBridge: peer.endpoint },
        eventBridge: { credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: 'partner-secret' }, createPartnerEventSources: false },
        timeouts: { sendMs: 5_000 },
      }),
    );
    adapter = pool.get({ type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' });
  });

  afterAll(async () => {
    await pool?.closeAll();
    await peer?.stop();
  });

  function encode(payload: Parameters<DestinationAdapter['encode']>[0]): EncodedMessage {
    const result = adapter.encode(payload, PLATFORM, { subscriptionId: SUBSCRIPTION_ID });
    if (!result.ok) throw new Error(result.failure.message);
    return result.message;
  }

  it('never puts an entry of 256 KB or more (the entry size must be less than 256 KB)', async () => {
    // A message whose PutPartnerEvents entry, as EventBridge counts it, is exactly 262,144 bytes.
    const base = encode(oversizedMessage(1, 0));
    const payload = oversizedMessage(1, ENTRY_LIMIT_BYTES - base.sizeBytes);
    const fullEntryBytes = entrySize({
      Time: 0,
      Source: source,
      DetailType: 'BusinessUnitAssociatesSet',
      Detail: formatDelivery(payload, PLATFORM, { cloudEventsTypePrefix: 'com.commercetools' }).json,
    });
    expect(fullEntryBytes).toBe(ENTRY_LIMIT_BYTES);
    const message = encode(payload);

    const outcomes = await adapter.send([message]);
    expect(outcomes).toEqual([{ status: 'delivered' }]);
    const [event] = peer.received.slice(-1);
    // What went over the wire, measured by the documented rule (Time 14 + Source + DetailType + Detail).
    const sent = entrySize({
      Time: 0,
      Source: event?.Source ?? '',
      DetailType: event?.DetailType ?? '',
      Detail: JSON.stringify(event?.Detail),
    });
    expect(sent).toBeLessThan(ENTRY_LIMIT_BYTES);
  });

  it('classifies the per-entry InvalidAccountIdException as a configuration error, not a payload error', async () => {
    peer.failEntries([0], 'InvalidAccountIdException', 'The account ID provided is not valid.');
    const [outcome] = await adapter.send([encode(messagePayload(2))]);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'InvalidAccountIdException' } });
    expect(outcome?.status === 'failed' ? outcome.failure.class : undefined).toBe('configuration');
  });
});
