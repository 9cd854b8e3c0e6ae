import { AzureKeyCredential, AzureSASCredential } from '@azure/core-auth';
import { EventGridPublisherClient, generateSharedAccessSignature, type SendCloudEventInput } from '@azure/eventgrid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEventGridPeer, type EventGridPeer } from '../../src/peers/event-grid/index.js';

let peer: EventGridPeer;

beforeEach(async () => {
  peer = await startEventGridPeer();
});
afterEach(async () => {
  await peer.stop();
});

function publisher(key = peer.accessKey, url = peer.url): EventGridPublisherClient<'CloudEvent'> {
  return new EventGridPublisherClient(url, 'CloudEvent', new AzureKeyCredential(key), {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });
}

const orderCreated = (id: string, data: object = { orderId: id }): SendCloudEventInput<unknown> => ({
  id,
  type: 'com.example.order.created',
  source: '/projects/demo',
  subject: `orders/${id}`,
  data,
});

/** Runs `action`, which must fail, and returns what it threw. */
async function failure(action: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await action();
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

describe('Event Grid peer with the real EventGridPublisherClient', () => {
  it('receives a single CloudEvent intact', async () => {
    await publisher().send([
      { ...orderCreated('e-1', { orderId: 'e-1', total: { cents: 1250, currency: 'EUR' } }), extensionAttributes: { partitionkey: 'orders-1' } },
    ]);
    const [event] = await peer.waitFor(1);
    expect(event).toMatchObject({
      specversion: '1.0',
      id: 'e-1',
      type: 'com.example.order.created',
      source: '/projects/demo',
      subject: 'orders/e-1',
      datacontenttype: 'application/json',
      partitionkey: 'orders-1',
      data: { orderId: 'e-1', total: { cents: 1250, currency: 'EUR' } },
    });
    expect(typeof event?.['time']).toBe('string');
  });

  it('receives a batch in one request, in order', async () => {
    await publisher().send([orderCreated('b-1'), orderCreated('b-2'), orderCreated('b-3')]);
    const events = await peer.waitFor(3);
    expect(events.map((event) => event.id)).toEqual(['b-1', 'b-2', 'b-3']);
    expect(peer.acceptedBatchSizes).toEqual([3]);
    expect(peer.requests).toBe(1);
  });

  it('receives binary data as data_base64 with its content type', async () => {
    const bytes = new TextEncoder().encode('<order id="x"/>');
    await publisher().send([{ id: 'bin-1', type: 't', source: '/s', data: bytes, datacontenttype: 'application/xml' }]);
    const [event] = await peer.waitFor(1);
    expect(event?.['datacontenttype']).toBe('application/xml');
    expect(Buffer.from(String(event?.['data_base64']), 'base64').toString()).toBe('<order id="x"/>');
  });

  it('rejects a wrong access key with RestError 401 Unauthorized', async () => {
    const error = await failure(() => publisher('d3Jvbmcta2V5').send([orderCreated('x')]));
    expect(error).toMatchObject({ name: 'RestError', statusCode: 401, code: 'Unauthorized' });
    expect(peer.received).toHaveLength(0);
  });

  it('accepts a valid shared access signature and rejects an expired one', async () => {
    const sasFor = async (expiresOn: Date) =>
      new EventGridPublisherClient(
        peer.url,
        'CloudEvent',
        new AzureSASCredential(await generateSharedAccessSignature(peer.url, new AzureKeyCredential(peer.accessKey), expiresOn)),
        { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } },
      );

    await (await sasFor(new Date(Date.now() + 60_000))).send([orderCreated('sas-1')]);
    await peer.waitFor(1);
    const error = await failure(async () => (await sasFor(new Date(Date.now() - 60_000))).send([orderCreated('sas-2')]));
    expect(error).toMatchObject({ statusCode: 401, code: 'Unauthorized' });
  });

  it('answers 404 for an unknown topic path', async () => {
    const error = await failure(() => publisher(peer.accessKey, peer.url.replace('/api/events', '/api/other')).send([orderCreated('x')]));
    expect(error).toMatchObject({ name: 'RestError', statusCode: 404, code: 'NotFound' });
  });

  it('rejects an event bigger than 1 MB with 413 RequestEntityTooLarge', async () => {
    const error = await failure(() => publisher().send([orderCreated('big', { blob: 'x'.repeat(1_048_576) })]));
    expect(error).toMatchObject({ statusCode: 413, code: 'RequestEntityTooLarge' });
    expect(peer.received).toHaveLength(0);
  });

  it('rejects a request over the request limit even when each event fits', async () => {
    const small = await startEventGridPeer({ maxRequestBytes: 10_000, maxEventBytes: 8_000 });
    try {
      const events = [1, 2].map((n) => orderCreated(`r-${n}`, { blob: 'y'.repeat(6_000) }));
      const error = await failure(() => publisher(small.accessKey, small.url).send(events));
      expect(error).toMatchObject({ statusCode: 413, code: 'RequestEntityTooLarge' });
      await publisher(small.accessKey, small.url).send([events[0]!]);
      await small.waitFor(1);
    } finally {
      await small.stop();
    }
  });

  it.each([
    ['unknown-entity', 404, 'NotFound'],
    ['bad-credentials', 401, 'Unauthorized'],
    ['throttled', 429, 'TooManyRequests'],
    ['server-error', 500, 'InternalServerError'],
    ['payload-too-large', 413, 'RequestEntityTooLarge'],
  ] as const)('maps the %s fault to HTTP %i %s', async (kind, statusCode, code) => {
    peer.faults.inject({ kind }, 1);
    const error = await failure(() => publisher().send([orderCreated('f-1')]));
    expect(error).toMatchObject({ name: 'RestError', statusCode, code });
    // The fault applied to one request only: the next one is accepted.
    await publisher().send([orderCreated('f-2')]);
    expect((await peer.waitFor(1)).map((event) => event.id)).toEqual(['f-2']);
  });

  it('keeps a fault until cleared when no count is given', async () => {
    peer.faults.inject({ kind: 'throttled' });
    for (const id of ['t-1', 't-2']) {
      expect(await failure(() => publisher().send([orderCreated(id)]))).toMatchObject({ statusCode: 429 });
    }
    peer.faults.clear();
    await publisher().send([orderCreated('t-3')]);
    await peer.waitFor(1);
  });

  it('drops the connection without an HTTP answer', async () => {
    peer.faults.inject({ kind: 'drop-connection' }, 1);
    const error = await failure(() => publisher().send([orderCreated('d-1')]));
    expect(error).toMatchObject({ name: 'RestError' });
    expect(error['statusCode']).toBeUndefined();
    expect(error['code']).toMatch(/ECONNRESET|REQUEST_SEND_ERROR|socket hang up/);
  });

  it('hangs until the client gives up', async () => {
    peer.faults.inject({ kind: 'hang' }, 1);
    // The client's own deadline is what ends a hung request against the real service too.
    const error = await failure(() => publisher().send([orderCreated('h-1')], { abortSignal: AbortSignal.timeout(300) }));
    expect(error['name']).toBe('AbortError');
    expect(peer.requests).toBe(1);
    expect(peer.received).toHaveLength(0);
  });

  it('validates CloudEvents 1.0 required attributes with 400 BadRequest', async () => {
    const post = (body: unknown, contentType = 'application/cloudevents-batch+json; charset=utf-8') =>
      fetch(`${peer.url}?api-version=2018-01-01`, {
        method: 'POST',
        headers: { 'aeg-sas-key': peer.accessKey, 'content-type': contentType },
        body: JSON.stringify(body),
      });
    const valid = { specversion: '1.0', id: 'v-1', source: '/s', type: 't' };
    for (const invalid of [
      [{ ...valid, type: undefined }],
      [{ ...valid, specversion: '0.3' }],
      [{ ...valid, id: '' }],
      [{ ...valid, data: {}, data_base64: 'AA==' }],
      [{ ...valid, 'Bad-Name': 1 }],
      valid,
      [],
    ]) {
      const response = await post(invalid);
      expect(response.status, JSON.stringify(invalid)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'BadRequest' } });
    }
    expect((await post([valid], 'application/json')).status).toBe(400);
    expect((await post([valid])).status).toBe(200);
    expect(peer.received).toHaveLength(1);
  });

  it('fails a wait that is not satisfied, so a test cannot pass by accident', async () => {
    await expect(peer.waitFor(1, 50)).rejects.toThrow(/waiting for 1 Event Grid events; 0 arrived/);
  });
});
