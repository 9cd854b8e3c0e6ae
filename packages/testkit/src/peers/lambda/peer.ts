import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from '../arrivals.js';
import { accessKeyIdOf } from '../eventbridge/sigv4.js';
import { FaultSchedule, type FaultInjector, type PeerFault } from '../faults.js';
import {
  functionNotFound,
  missingAuthentication,
  requestTooLarge,
  sendError,
  sendResult,
  serviceError,
  tooManyRequests,
  unrecognizedClient,
  type LambdaError,
} from './responses.js';

/** What a function receives besides its event: its name and the caller's client context, decoded. */
export interface LambdaContext {
  functionName: string;
  qualifier?: string;
  clientContext?: unknown;
}

/** A function's code: its result is the invocation's payload; a throw is an `Unhandled` function error. */
export type LambdaHandler = (event: unknown, context: LambdaContext) => unknown;

export interface LambdaInvocation {
  functionName: string;
  qualifier?: string;
  /** The payload as sent, parsed (undefined when it was not JSON). */
  event: unknown;
  clientContext?: unknown;
  /** The access key id of the request's SigV4 signature. */
  accessKeyId?: string;
}

export interface LambdaPeerOptions {
  /** Port on 127.0.0.1; default: any free port. */
  readonly port?: number;
  /** When set, requests signed with another access key id fail with `UnrecognizedClientException` (403). */
  readonly accessKeyId?: string;
  /** The functions that exist, by name (a request may name them by name or by ARN). */
  readonly functions?: Readonly<Record<string, LambdaHandler>>;
}

export interface LambdaPeer {
  /** Give this to `new LambdaClient({ endpoint })`, e.g. `http://127.0.0.1:PORT`. */
  readonly endpoint: string;
  /** Every invocation that reached a function, in arrival order. */
  readonly invocations: readonly LambdaInvocation[];
  readonly faults: FaultInjector;
  /** Creates or replaces a function. */
  setFunction(name: string, handler: LambdaHandler): void;
  deleteFunction(name: string): void;
  /** Resolves with all invocations once at least `count` arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<LambdaInvocation[]>;
  stop(): Promise<void>;
}

/** `POST /2015-03-31/functions/{FunctionName}/invocations` (the Invoke operation). */
const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
/** Lambda's synchronous payload limit. */
const MAX_PAYLOAD_BYTES = 6 * 1_048_576;
const DEFAULT_WAIT_MS = 15_000;

/** `name`, `name:alias`, `arn:aws:lambda:region:account:function:name[:alias]` → name and qualifier. */
function functionOf(target: string, qualifierParam: string | null): { name: string; qualifier?: string } {
  const parts = target.startsWith('arn:') ? target.split(':').slice(6) : target.split(':');
  const [name = '', alias] = parts;
  const qualifier = qualifierParam ?? alias;
  return qualifier === undefined ? { name } : { name, qualifier };
}

function faultError(fault: PeerFault, name: string): LambdaError | undefined {
  switch (fault.kind) {
    case 'unknown-entity':
      return functionNotFound(name);
    case 'bad-credentials':
      return unrecognizedClient();
    case 'throttled':
      return tooManyRequests();
    case 'server-error':
      return serviceError();
    case 'payload-too-large':
      return requestTooLarge();
    default:
      return undefined;
  }
}

function decodedClientContext(header: string | string[] | undefined): unknown {
  if (typeof header !== 'string') return undefined;
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function parsedEvent(body: Buffer): unknown {
  try {
    return body.length === 0 ? undefined : (JSON.parse(body.toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * A local endpoint that answers Lambda's Invoke like the service does (RequestResponse): the
 * functions are JavaScript handlers given by the test. The SigV4 signature's access key is checked
 * when `accessKeyId` is set (the signature itself is not verified, as in the EventBridge peer).
 */
export async function startLambdaPeer(options: LambdaPeerOptions = {}): Promise<LambdaPeer> {
  const faults = new FaultSchedule();
  const invocations = new Arrivals<LambdaInvocation>();
  const functions = new Map(Object.entries(options.functions ?? {}));

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, { status: 500, type: 'ServiceException', message: `peer bug: ${String(error)}` });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://peer');
    const match = INVOKE_PATH.exec(url.pathname);
    if (request.method !== 'POST' || match?.[1] === undefined)
      return sendError(response, { status: 404, type: 'UnknownOperationException', message: 'Unknown operation' });
    const target = functionOf(decodeURIComponent(match[1]), url.searchParams.get('Qualifier'));
    if (body === undefined) return sendError(response, requestTooLarge());

    const fault = faults.take();
    if (fault?.kind === 'hang') return; // never answered; stop() closes the socket
    if (fault?.kind === 'drop-connection') return void request.socket.destroy();
    const injected = fault === undefined ? undefined : faultError(fault, target.name);
    if (injected !== undefined) return sendError(response, injected);

    const keyId = accessKeyIdOf(request.headers.authorization);
    if (options.accessKeyId !== undefined) {
      if (keyId === undefined) return sendError(response, missingAuthentication());
      if (keyId !== options.accessKeyId) return sendError(response, unrecognizedClient());
    }
    const handler = functions.get(target.name);
    if (handler === undefined) return sendError(response, functionNotFound(target.name));

    const event = parsedEvent(body);
    const clientContext = decodedClientContext(request.headers['x-amz-client-context']);
    invocations.push({
      functionName: target.name,
      event,
      ...(target.qualifier === undefined ? {} : { qualifier: target.qualifier }),
      ...(clientContext === undefined ? {} : { clientContext }),
      ...(keyId === undefined ? {} : { accessKeyId: keyId }),
    });
    const context: LambdaContext = {
      functionName: target.name,
      ...(target.qualifier === undefined ? {} : { qualifier: target.qualifier }),
      ...(clientContext === undefined ? {} : { clientContext }),
    };
    try {
      const result: unknown = await handler(event, context);
      sendResult(response, result === undefined ? 'null' : JSON.stringify(result));
    } catch (error) {
      const failure = error instanceof Error ? { errorMessage: error.message, errorType: error.name } : { errorMessage: String(error), errorType: 'Error' };
      sendResult(response, JSON.stringify(failure), 'Unhandled');
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    get invocations() {
      return invocations.items;
    },
    faults,
    setFunction(name, handler) {
      functions.set(name, handler);
    },
    deleteFunction(name) {
      functions.delete(name);
    },
    waitFor(count, timeoutMs = DEFAULT_WAIT_MS) {
      return invocations.waitFor(count, timeoutMs, 'Lambda invocations');
    },
    async stop() {
      invocations.close('Lambda peer stopped');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The request body, or undefined when it is over Lambda's synchronous payload limit. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > MAX_PAYLOAD_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
