/**
 * Pub/Sub push wraps the message in a JSON envelope with `data` base64-encoded (4/3 of the message
 * size), and Pub/Sub accepts messages up to 10 MB (Herald's own Pub/Sub destination publishes up to
 * that: packages/delivery/src/destinations/pubsub/publish-request-size.ts). The push endpoint's
 * default body limit is 1 MiB ("Event Grid's limit per request"), so any Herald delivery above
 * ~786 KB that arrives by Pub/Sub push is answered 413: not one of Pub/Sub's ack codes
 * (102/200/201/202/204), so Pub/Sub redelivers it until the dead-letter policy or the retention
 * takes it, and it is never handled. The message here is 800 KB: it would fit the same default if
 * Event Grid delivered it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryDedupStore, type Delivery } from '../../src/index.js';
import { cloudEventOf, messagePayload } from '../support/fixtures.js';
import { fastifyEndpoint, nodeEndpoint, pubSubPushBody, type PushEndpoint } from '../support/push-endpoints.js';

const MESSAGE_BYTES = 800_000;

function largeHeraldEvent(id: string): string {
  const payload = messagePayload(1, { id }, { name: 'x'.repeat(MESSAGE_BYTES) } as never);
  return JSON.stringify(cloudEventOf(payload));
}

for (const [name, start] of [
  ['node:http handler', nodeEndpoint],
  ['Fastify plugin', fastifyEndpoint],
] as const) {
  describe(`${name} with its default bodyLimitBytes`, () => {
    let endpoint: PushEndpoint | undefined;
    afterEach(async () => {
      await endpoint?.close();
      endpoint = undefined;
    });

    it('acknowledges an 800 KB Herald message pushed by Pub/Sub (well under its 10 MB message limit)', async () => {
      const handled: Delivery[] = [];
      endpoint = await start({ dedup: new MemoryDedupStore(), handler: (delivery) => void handled.push(delivery) });
      const event = largeHeraldEvent(`large-${name}`);
      expect(Buffer.byteLength(event)).toBeLessThan(1024 * 1024); // it would fit when pushed by Event Grid
      const response = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: pubSubPushBody(event) });
      expect([102, 200, 201, 202, 204]).toContain(response.status);
      expect(handled).toHaveLength(1);
    });
  });
}
