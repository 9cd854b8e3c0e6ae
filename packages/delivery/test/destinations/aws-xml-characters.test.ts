import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Format } from '@herald/model';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import type { DestinationAdapter } from '../../src/destinations/port.js';
import { createDestinationEnvironment, DestinationPool } from '../../src/index.js';
import { messagePayload } from './support/payloads.js';

/**
 * SQS bodies and SNS messages may hold only the XML 1.0 characters #x9 | #xA | #xD | #x20-#xD7FF |
 * #xE000-#xFFFD | #x10000-#x10FFFF. The noncharacters U+FFFE/U+FFFF are valid text (a user can put
 * them in a business unit name) and JSON.stringify leaves them raw; SQS then answers
 * `InvalidMessageContents`, a payload error, and the delivery would be dropped. Written as the JSON
 * escape `\uffff` they pass, and the document parses back to the same text.
 */
const REGION = 'us-east-1';
const CREDENTIALS = { accessKey: 'AKIAHERALDXMLTEST001', accessSecret: 'herald-xml-test-secret' };
const NAME = 'Unit \ufffe\uffff imported';
const FORMATS: readonly [string, Format][] = [
  ['Platform', { type: 'Platform' }],
  ['CloudEvents', { type: 'CloudEvents', cloudEventsVersion: '1.0' }],
];

/** The business unit name as a consumer parses it from the delivered document. */
function nameIn(body: string | undefined, format: Format): unknown {
  const document = JSON.parse(body ?? 'null') as Record<string, unknown>;
  return ((format.type === 'CloudEvents' ? document.data : document) as Record<string, unknown>).name;
}

describe('SQS and SNS adapters: characters outside XML 1.0', () => {
  let peer: SqsPeer;
  let pool: DestinationPool;
  let counter = 0;

  beforeAll(async () => {
    peer = await startSqsPeer({ region: REGION });
    pool = new DestinationPool(createDestinationEnvironment({ endpoints: { sqs: peer.endpoint, sns: peer.endpoint }, timeouts: { sendMs: 5_000 } }));
  });

  afterAll(async () => {
    await pool?.closeAll();
    await peer?.stop();
  });

  async function sendOne(adapter: DestinationAdapter, format: Format): Promise<void> {
    const encoded = adapter.encode(messagePayload(1, { name: NAME }), format, { subscriptionId: 'sub-1' });
    if (!encoded.ok) throw new Error(encoded.failure.message);
    expect(await adapter.send([encoded.message])).toEqual([{ status: 'delivered' }]);
  }

  describe.each(FORMATS)('in the %s format', (_name, format) => {
    it('SQS: delivers a message whose text holds U+FFFE and U+FFFF instead of dropping it as a payload error', async () => {
      const queueUrl = peer.createQueue(`xml-sqs-${++counter}`);
      await sendOne(pool.get({ type: 'SQS', queueUrl, region: REGION, ...CREDENTIALS }), format);
      const [received] = await peer.receiveAll(queueUrl);
      expect(received?.body).toContain('\\ufffe\\uffff');
      expect(nameIn(received?.body, format)).toBe(NAME);
    });

    // fauxqs does not check SNS messages' characters (AWS does): this shows what SNS is given.
    it('SNS: publishes such text as JSON escapes, which the subscriber parses back to the same text', async () => {
      const topicArn = peer.createTopic(`xml-sns-${++counter}`);
      const sink = peer.createQueue(`xml-sns-sink-${counter}`);
      peer.subscribeQueue(topicArn, sink, { raw: true });
      await sendOne(pool.get({ type: 'SNS', topicArn, ...CREDENTIALS }), format);
      const [received] = await peer.waitForMessages(sink, 1);
      expect(received?.body).not.toMatch(/[\ufffe\uffff]/);
      expect(received?.body).toContain('\\ufffe\\uffff');
      expect(nameIn(received?.body, format)).toBe(NAME);
    });
  });
});
