import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessagesApiFetcher, loadNotIncludedPayload, MessagesApiError, parseDelivery } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';

/** A stand-in for the gateway's Messages API: `GET /{projectKey}/messages/{id}` with a bearer token. */
describe('createMessagesApiFetcher against a real HTTP server', () => {
  let server: Server;
  let baseUrl: string;
  const requests: { url: string; authorization: string | undefined }[] = [];
  let slowInFlight = 0;
  let slowMostInFlight = 0;
  const { notificationType: _n, projectKey: _p, ...message } = messagePayload(1);

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response) => {
      requests.push({ url: request.url ?? '', authorization: request.headers.authorization });
      const json = (status: number, body: object) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization === 'Bearer expired') return json(401, { statusCode: 401, message: 'invalid_token', errors: [] });
      if (request.headers.authorization !== 'Bearer good' && request.headers.authorization !== 'Bearer fresh')
        return json(403, { statusCode: 403, message: 'no', errors: [] });
      if (request.url === '/proj/messages/msg-bu-1-1') return json(200, message);
      if (request.url?.startsWith('/proj/messages/slow-')) {
        slowMostInFlight = Math.max(slowMostInFlight, ++slowInFlight);
        setTimeout(() => {
          slowInFlight--;
          json(200, { ...message, id: request.url?.split('/').pop() });
        }, 50);
        return;
      }
      if (request.url === '/proj/messages/broken') return json(500, { statusCode: 500, message: 'internal', errors: [] });
      if (request.url === '/proj/messages/someone-else') return json(200, { ...message, id: 'other' });
      return json(404, { statusCode: 404, message: 'not found', errors: [{ code: 'ResourceNotFound', message: 'not found' }] });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('loads a message with the bearer token', async () => {
    const fetcher = createMessagesApiFetcher({ baseUrl, getToken: () => 'good' });
    expect(await fetcher({ projectKey: 'proj', messageId: 'msg-bu-1-1' })).toEqual(message);
    expect(requests.at(-1)).toEqual({ url: '/proj/messages/msg-bu-1-1', authorization: 'Bearer good' });
  });

  it('completes a parsed payloadNotIncluded delivery for users of parseDelivery alone', async () => {
    const { type: _type, name: _name, ...withoutPayload } = messagePayload(1);
    const parsed = parseDelivery({
      source: 'sqs',
      body: JSON.stringify({ ...withoutPayload, payloadNotIncluded: { reason: 'MessageTooLarge', payloadType: 'BusinessUnitNameChanged' } }),
    });
    if (parsed.kind !== 'delivery') throw new Error('expected a delivery');
    const completed = await loadNotIncludedPayload(parsed.delivery, createMessagesApiFetcher({ baseUrl, getToken: () => 'good' }));
    expect(completed).toMatchObject({ payloadFetched: true, payload: { type: 'BusinessUnitNameChanged', name: 'name 1', notificationType: 'Message' } });
  });

  it('answers undefined for a message the API does not have', async () => {
    const fetcher = createMessagesApiFetcher({ baseUrl, getToken: async () => 'good' });
    expect(await fetcher({ projectKey: 'proj', messageId: 'gone' })).toBeUndefined();
  });

  it('retries once with a fresh token after a 401', async () => {
    const asked: boolean[] = [];
    const fetcher = createMessagesApiFetcher({
      baseUrl,
      getToken: ({ forceRefresh }) => {
        asked.push(forceRefresh);
        return forceRefresh ? 'fresh' : 'expired';
      },
    });
    expect(await fetcher({ projectKey: 'proj', messageId: 'msg-bu-1-1' })).toEqual(message);
    expect(asked).toEqual([false, true]);
  });

  it('rejects on other answers, and on a body that is not the message asked for', async () => {
    const fetcher = createMessagesApiFetcher({ baseUrl, getToken: () => 'good' });
    await expect(fetcher({ projectKey: 'proj', messageId: 'broken' })).rejects.toMatchObject({ name: 'MessagesApiError', statusCode: 500 });
    await expect(fetcher({ projectKey: 'proj', messageId: 'someone-else' })).rejects.toBeInstanceOf(MessagesApiError);
    const forbidden = createMessagesApiFetcher({ baseUrl, getToken: () => 'bad' });
    await expect(forbidden({ projectKey: 'proj', messageId: 'msg-bu-1-1' })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('keeps at most maxConcurrentRequests requests in flight, the others wait their turn', async () => {
    const fetcher = createMessagesApiFetcher({ baseUrl, getToken: () => 'good', maxConcurrentRequests: 3 });
    const ids = Array.from({ length: 10 }, (_, index) => `slow-${index}`);
    const loaded = await Promise.all(ids.map((messageId) => fetcher({ projectKey: 'proj', messageId })));
    expect(loaded.map((loadedMessage) => loadedMessage?.id)).toEqual(ids);
    expect(slowMostInFlight).toBe(3);
    expect(() => createMessagesApiFetcher({ baseUrl, getToken: () => 'good', maxConcurrentRequests: 0 })).toThrow(RangeError);
  });
});
