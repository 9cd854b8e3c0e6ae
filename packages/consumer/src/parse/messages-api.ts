import type { Message, MessageDeliveryPayload } from '@herald/model';
import PQueue from 'p-queue';
import type { AnyDelivery, MessageDelivery } from '../delivery.js';

/** Which message to load. */
export interface MessageLocator {
  readonly projectKey: string;
  readonly messageId: string;
}

/**
 * Loads a message whose payload was not included in the delivery (§6.2 `payloadNotIncluded`).
 * Resolves `undefined` when the Messages API does not have it (messages disabled or expired);
 * rejects on any other failure, which makes the delivery fail and be retried.
 */
export type MessageFetcher = (locator: MessageLocator) => Promise<Message | undefined>;

export interface MessagesApiFetcherOptions {
  /** The API's base URL, e.g. `https://api.example.com` (no trailing project key). */
  readonly baseUrl: string;
  /**
   * A bearer token with `view_messages:{projectKey}` scope. Called for every request: cache it on
   * your side. `forceRefresh` is true when the previous token was rejected with 401.
   */
  readonly getToken: (request: { readonly projectKey: string; readonly forceRefresh: boolean }) => Promise<string> | string;
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
  /**
   * Requests in flight at once; the others wait in arrival order. Default 8. Large messages tend
   * to come in bursts (one bulk import), and each one is a request to the Messages API.
   */
  readonly maxConcurrentRequests?: number;
}

/** A Messages API answer other than 200 / 404. */
export class MessagesApiError extends Error {
  override readonly name = 'MessagesApiError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** `GET {baseUrl}/{projectKey}/messages/{id}` with a bearer token, using global fetch. */
export function createMessagesApiFetcher(options: MessagesApiFetcherOptions): MessageFetcher {
  const fetchImpl = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxConcurrentRequests = options.maxConcurrentRequests ?? 8;
  if (!Number.isInteger(maxConcurrentRequests) || maxConcurrentRequests < 1) throw new RangeError('maxConcurrentRequests must be an integer >= 1');
  // Not the consumer's hot path (one HTTP request each), so p-queue's per-task cost does not matter.
  const requests = new PQueue({ concurrency: maxConcurrentRequests });

  async function request(locator: MessageLocator, forceRefresh: boolean): Promise<Response> {
    const token = await options.getToken({ projectKey: locator.projectKey, forceRefresh });
    const url = `${baseUrl}/${encodeURIComponent(locator.projectKey)}/messages/${encodeURIComponent(locator.messageId)}`;
    return fetchImpl(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  async function load(locator: MessageLocator): Promise<Message | undefined> {
    let response = await request(locator, false);
    // A token can expire between getToken and the request: one retry with a fresh one.
    if (response.status === 401) {
      await response.body?.cancel();
      response = await request(locator, true);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new MessagesApiError(response.status, `Messages API answered ${response.status} for message ${locator.messageId}: ${text.slice(0, 200)}`);
    }
    const message = (await response.json()) as Message;
    if (typeof message !== 'object' || message === null || message.id !== locator.messageId || typeof message.type !== 'string') {
      throw new MessagesApiError(response.status, `Messages API answered something that is not message ${locator.messageId}`);
    }
    return message;
  }

  return (locator) => requests.add(() => load(locator));
}

/**
 * The delivery with its payload completed from the fetched message: the message-specific fields
 * and `type` are added, the delivery's own fields win (they describe this delivery).
 */
export function withFetchedPayload(delivery: MessageDelivery, message: Message): MessageDelivery {
  const payload = { ...message, ...delivery.payload, type: message.type } as MessageDeliveryPayload;
  delete payload.payloadNotIncluded;
  return { ...delivery, payload, payloadFetched: true };
}

/**
 * For users of `parseDelivery` alone (the consumer does this itself with its `fetchMessage`
 * option): a message delivered with `payloadNotIncluded` completed from the Messages API; any other
 * delivery as it is. A message the API does not have stays as delivered (`payloadFetched: false`).
 */
export async function loadNotIncludedPayload<D extends AnyDelivery>(delivery: D, fetchMessage: MessageFetcher): Promise<D | MessageDelivery> {
  if (delivery.notificationType !== 'Message' || delivery.payloadNotIncluded === undefined) return delivery;
  const message = await fetchMessage({ projectKey: delivery.payload.projectKey, messageId: delivery.payload.id });
  return message === undefined ? delivery : withFetchedPayload(delivery, message);
}
