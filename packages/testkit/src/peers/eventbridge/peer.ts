import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from '../arrivals.js';
import { FaultSchedule, type FaultInjector } from '../faults.js';
import {
  entryFailure,
  entrySize,
  MAX_ENTRIES_PER_CALL,
  MAX_ENTRY_BYTES,
  oversizedEntry,
  readEntries,
  toReceived,
  type EntryFailure,
  type ReceivedPartnerEvent,
  type ResultEntry,
  type WireEntry,
} from './entries.js';
import {
  faultError,
  missingAuthentication,
  sendError,
  sendJson,
  unknownOperation,
  unrecognizedClient,
  validationError,
  type AwsJsonError,
} from './responses.js';
import { accessKeyIdOf } from './sigv4.js';

export interface EventBridgePeerOptions {
  /** Port on 127.0.0.1; default: any free port. */
  readonly port?: number;
  /** When set, requests signed with another access key id fail with `UnrecognizedClientException`. */
  readonly accessKeyId?: string;
  /**
   * Partner event sources that exist. Giving this (or calling `createPartnerEventSource`) turns the
   * registry on: entries whose `Source` is not in it fail. Without it any source is accepted.
   */
  readonly partnerEventSources?: readonly string[];
  /**
   * Limit on the summed entry sizes of one call; AWS answers a call over it with
   * `ValidationException: Total size of the entries in the request is over the limit.`
   * Default 256 KB; `Infinity` turns the check off.
   */
  readonly maxBatchBytes?: number;
}

export interface EventBridgePeer {
  /** Give this to `new EventBridgeClient({ endpoint })`, e.g. `http://127.0.0.1:PORT`. */
  readonly endpoint: string;
  /** Every accepted event, in arrival order. */
  readonly received: readonly ReceivedPartnerEvent[];
  /** Entry count of each PutPartnerEvents call that got a 200, in order (to assert batching). */
  readonly batchSizes: readonly number[];
  /** HTTP requests that reached the peer, answered or not. */
  readonly requests: number;
  readonly faults: FaultInjector;
  readonly partnerEventSources: ReadonlySet<string>;
  createPartnerEventSource(name: string): void;
  deletePartnerEventSource(name: string): void;
  /**
   * Makes the entries at `indices` of the next PutPartnerEvents call fail with `errorCode`
   * (default `InternalFailure`, which the docs list as retryable), to test partial-batch resends.
   */
  failEntries(indices: readonly number[], errorCode?: string, errorMessage?: string): void;
  /** Resolves with all received events once at least `count` were accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPartnerEvent[]>;
  stop(): Promise<void>;
}

const PUT_PARTNER_EVENTS = 'AWSEvents.PutPartnerEvents';
/** Far above any valid call (20 × 256 KB plus JSON escaping), so only a runaway client hits it. */
const MAX_BODY_BYTES = 16 * 1_048_576;
/** How long a wait for arrivals lasts unless told: a bound for failing tests, generous for a loaded 2-core CI machine. */
const DEFAULT_WAIT_MS = 15_000;

/** Starts a local EventBridge endpoint that answers `PutPartnerEvents` like the service does. */
export async function startEventBridgePeer(options: EventBridgePeerOptions = {}): Promise<EventBridgePeer> {
  const faults = new FaultSchedule();
  const received = new Arrivals<ReceivedPartnerEvent>();
  const batchSizes: number[] = [];
  const sources = new Set(options.partnerEventSources ?? []);
  let sourceRegistryOn = options.partnerEventSources !== undefined;
  let nextEntryFailures: ReadonlyMap<number, EntryFailure> = new Map();
  const maxBatchBytes = options.maxBatchBytes ?? MAX_ENTRY_BYTES;
  let requests = 0;

  const server = createServer((request, response) => {
    requests += 1;
    handle(request, response).catch((error: unknown) => {
      // A bug in the peer must surface as a failed request, not as a hanging test.
      if (!response.headersSent) sendError(response, { status: 500, type: 'InternalException', message: `peer bug: ${String(error)}` });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Read the whole body first so that every answer (or a drop) happens after the client sent it.
    const body = await readBody(request);
    if (body === undefined) return sendError(response, { status: 413, type: 'RequestEntityTooLargeException', message: 'Request too large.' });

    const fault = faults.take();
    if (fault?.kind === 'hang') return; // never answered; stop() closes the socket
    if (fault?.kind === 'drop-connection') {
      request.socket.destroy();
      return;
    }
    if (fault !== undefined && fault.kind !== 'payload-too-large') return sendError(response, faultError(fault.kind));

    const authError = authenticate(request.headers.authorization);
    if (authError !== undefined) return sendError(response, authError);

    const target = request.headers['x-amz-target'];
    if (target !== PUT_PARTNER_EVENTS) return sendError(response, unknownOperation(String(target)));

    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return sendError(response, { status: 400, type: 'SerializationException', message: 'Request body is not valid JSON.' });
    }
    const entries = readEntries(parsed);
    if (entries === undefined) return sendError(response, validationError('1 validation error detected: Entries must be a list.'));
    const requestError = batchError(entries);
    if (requestError !== undefined) return sendError(response, requestError);

    const injected = nextEntryFailures;
    nextEntryFailures = new Map();
    const results = entries.map((entry, index): ResultEntry => {
      const failure =
        injected.get(index) ?? (fault?.kind === 'payload-too-large' ? oversizedEntry() : undefined) ?? entryFailure(entry) ?? sourceFailure(entry);
      if (failure !== undefined) return failure;
      const eventId = randomUUID();
      received.push(toReceived(entry, eventId));
      return { EventId: eventId };
    });
    batchSizes.push(entries.length);
    sendJson(response, 200, { FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length, Entries: results });
  }

  function authenticate(authorization: string | undefined): AwsJsonError | undefined {
    if (options.accessKeyId === undefined) return undefined;
    const keyId = accessKeyIdOf(authorization);
    if (keyId === undefined) return missingAuthentication();
    return keyId === options.accessKeyId ? undefined : unrecognizedClient();
  }

  /** Request-level checks: the whole call is refused with a 400. */
  function batchError(entries: readonly WireEntry[]): AwsJsonError | undefined {
    if (entries.length < 1 || entries.length > MAX_ENTRIES_PER_CALL) {
      return validationError(
        `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length less than or equal to ${MAX_ENTRIES_PER_CALL} and greater than or equal to 1`,
      );
    }
    // An entry over the limit on its own fails per entry instead (see entries.ts), so it is not
    // counted here: a test can then tell "this event is too big" from "this batch is too big".
    const total = entries
      .map(entrySize)
      .filter((size) => size <= MAX_ENTRY_BYTES)
      .reduce((sum, size) => sum + size, 0);
    if (total > maxBatchBytes) return validationError('Total size of the entries in the request is over the limit.');
    return undefined;
  }

  function sourceFailure(entry: WireEntry): EntryFailure | undefined {
    if (!sourceRegistryOn || sources.has(entry.Source ?? '')) return undefined;
    // The documented per-entry code for a source the caller may not publish with.
    return {
      ErrorCode: 'NotAuthorizedForSourceException',
      ErrorMessage: `Not authorized for the source ${entry.Source ?? ''}: no such partner event source.`,
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    get received() {
      return received.items;
    },
    batchSizes,
    get requests() {
      return requests;
    },
    faults,
    partnerEventSources: sources,
    createPartnerEventSource(name) {
      sourceRegistryOn = true;
      sources.add(name);
    },
    deletePartnerEventSource(name) {
      sources.delete(name);
    },
    failEntries(indices, errorCode = 'InternalFailure', errorMessage = 'The request processing has failed because of an unknown error.') {
      nextEntryFailures = new Map(indices.map((index) => [index, { ErrorCode: errorCode, ErrorMessage: errorMessage }]));
    },
    waitFor(count, timeoutMs = DEFAULT_WAIT_MS) {
      return received.waitFor(count, timeoutMs, 'EventBridge events');
    },
    async stop() {
      received.close('EventBridge peer stopped');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hung requests and idle keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      });
    },
  };
}

/** The request body, or undefined when it is larger than any valid call. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
