import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FaultSchedule, type FaultInjector } from '../faults.js';
import { Arrivals } from '../arrivals.js';
import { authenticate } from './auth.js';
import { parseCloudEventBatch, parseSingleCloudEvent, type BatchParseResult, type ReceivedCloudEvent } from './cloud-events.js';
import { badRequest, faultAnswer, notFound, sendError, tooLarge, unauthorized } from './responses.js';

export interface EventGridPeerOptions {
  /** Port on 127.0.0.1; default: any free port. */
  readonly port?: number;
  /** The topic access key; default: a random 32-byte base64 key, like the service issues. */
  readonly accessKey?: string;
  /** Event Grid's limit per publish request: 1 MB. */
  readonly maxRequestBytes?: number;
  /** Event Grid's limit per event: 1 MB. */
  readonly maxEventBytes?: number;
}

export interface EventGridPeer {
  /** The topic endpoint to give `EventGridPublisherClient`, e.g. `http://127.0.0.1:PORT/api/events`. */
  readonly url: string;
  readonly accessKey: string;
  /** Every accepted event, in arrival order. */
  readonly received: readonly ReceivedCloudEvent[];
  /** Number of events in each accepted publish request, in order (to assert how a sender batches). */
  readonly acceptedBatchSizes: readonly number[];
  /** Publish requests that reached the peer, answered or not. */
  readonly requests: number;
  /**
   * Every publish request takes the pending fault: `unknown-entity` 404 NotFound, `bad-credentials`
   * 401 Unauthorized, `throttled` 429 TooManyRequests (Retry-After: 1), `server-error` 500
   * InternalServerError, `payload-too-large` 413 RequestEntityTooLarge, `hang` no answer until
   * stop(), `drop-connection` the socket is destroyed. Faulted requests store nothing.
   */
  readonly faults: FaultInjector;
  /** Resolves with all received events once at least `count` were accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedCloudEvent[]>;
  stop(): Promise<void>;
}

const ENDPOINT_PATH = '/api/events';
const ONE_MEGABYTE = 1_048_576;
/** How long a wait for arrivals lasts unless told: a bound for failing tests, generous for a loaded 2-core CI machine. */
const DEFAULT_WAIT_MS = 15_000;

/** Starts a local Event Grid topic endpoint speaking the publish API (CloudEvents 1.0 schema). */
export async function startEventGridPeer(options: EventGridPeerOptions = {}): Promise<EventGridPeer> {
  const accessKey = options.accessKey ?? randomBytes(32).toString('base64');
  const limits = {
    request: options.maxRequestBytes ?? ONE_MEGABYTE,
    event: options.maxEventBytes ?? ONE_MEGABYTE,
  };
  const faults = new FaultSchedule();
  const arrivals = new Arrivals<ReceivedCloudEvent>();
  const batchSizes: number[] = [];
  const sockets = new Set<Socket>();
  let requests = 0;

  const server = createServer((request, response) => {
    requests += 1;
    handlePublish(request, response).catch((error: unknown) => {
      // A bug in the peer must surface as a failed request, not as a silently hanging test.
      if (!response.headersSent) sendError(response, { status: 500, code: 'PeerBug', message: String(error) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handlePublish(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const fault = faults.take();
    if (fault?.kind === 'hang') return; // never answered; stop() destroys the socket
    if (fault?.kind === 'drop-connection') {
      request.socket.destroy();
      return;
    }
    // Read the whole body before answering, so the client always sees the status, not a reset.
    const body = await readBody(request, limits.request);
    if (fault !== undefined) return sendError(response, faultAnswer(fault.kind));

    const url = new URL(request.url ?? '/', 'http://peer');
    if (url.pathname !== ENDPOINT_PATH) return sendError(response, notFound(`No topic at ${url.pathname}.`));
    if (request.method !== 'POST') {
      return sendError(response, { status: 405, code: 'MethodNotAllowed', message: `${request.method} is not supported.` });
    }
    const auth = authenticate(
      { key: singleHeader(request, 'aeg-sas-key'), token: singleHeader(request, 'aeg-sas-token') },
      { accessKey, endpointPath: ENDPOINT_PATH },
      new Date(),
    );
    if (!auth.ok) return sendError(response, unauthorized(auth.message));
    if (url.searchParams.get('api-version') === null) return sendError(response, badRequest("The 'api-version' query parameter is required."));
    if (body.totalBytes > limits.request) {
      return sendError(response, tooLarge(`The request is ${body.totalBytes} bytes; the limit is ${limits.request} bytes.`));
    }

    const parsed = parseByContentType(request.headers['content-type'], body.text);
    if (!parsed.ok) return sendError(response, badRequest(parsed.message));
    for (const event of parsed.events) {
      const eventBytes = Buffer.byteLength(JSON.stringify(event));
      if (eventBytes > limits.event) {
        return sendError(response, tooLarge(`Event '${event.id}' is ${eventBytes} bytes; the limit is ${limits.event} bytes.`));
      }
    }
    batchSizes.push(parsed.events.length);
    arrivals.push(...parsed.events);
    response.writeHead(200, { 'content-length': 0 });
    response.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${ENDPOINT_PATH}`,
    accessKey,
    received: arrivals.items,
    acceptedBatchSizes: batchSizes,
    get requests() {
      return requests;
    },
    faults,
    waitFor: (count, timeoutMs = DEFAULT_WAIT_MS) => arrivals.waitFor(count, timeoutMs, 'Event Grid events'),
    async stop() {
      arrivals.close('the Event Grid peer stopped');
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseByContentType(contentType: string | undefined, text: string): BatchParseResult {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/cloudevents-batch+json') return parseCloudEventBatch(text);
  if (mediaType === 'application/cloudevents+json') return parseSingleCloudEvent(text);
  return {
    ok: false,
    message: `Unsupported content type '${contentType ?? ''}': this topic accepts the CloudEvents 1.0 schema only.`,
  };
}

function singleHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads the body, keeping at most `keepBytes` (the rest is counted and discarded). */
async function readBody(request: IncomingMessage, keepBytes: number): Promise<{ text: string; totalBytes: number }> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let totalBytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    totalBytes += chunk.length;
    if (keptBytes + chunk.length <= keepBytes) {
      kept.push(chunk);
      keptBytes += chunk.length;
    }
  }
  return { text: Buffer.concat(kept).toString('utf8'), totalBytes };
}
