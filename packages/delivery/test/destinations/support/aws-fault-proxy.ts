import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FaultSchedule } from '@herald/testkit';

/**
 * A loopback HTTP proxy in front of fauxqs that injects the faults fauxqs cannot produce: AWS error
 * answers (throttling, 5xx, bad credentials), hangs, dropped connections and per-entry server
 * faults of a batch. Everything else is forwarded untouched.
 *
 * Error shapes follow the AWS protocols the SDKs speak: JSON 1.0 (`__type`) for SQS, query/XML
 * (`<ErrorResponse><Error><Code>`) for SNS.
 */
export type AwsProtocol = 'json' | 'query';

export interface AwsFaultProxy {
  readonly endpoint: string;
  readonly faults: FaultSchedule;
  /** Entry count of each batch request forwarded to fauxqs (after removing failed entries). */
  readonly forwardedBatchSizes: number[];
  /** Entry count of each batch request the proxy received. */
  readonly receivedBatchSizes: number[];
  /** The access key id each request was signed with (SigV4 `Credential=<id>/…`), in arrival order. */
  readonly signingAccessKeyIds: string[];
  /**
   * The next batch request: the entries at these positions fail with a server-side per-entry error
   * (`SenderFault: false`, `InternalError`) and are not forwarded, so they arrive only if resent.
   */
  failEntries(indices: readonly number[]): void;
  stop(): Promise<void>;
}

interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
}

const FAULT_ANSWERS: Record<'unknown-entity' | 'bad-credentials' | 'throttled' | 'server-error' | 'payload-too-large', Record<AwsProtocol, ErrorAnswer>> = {
  'unknown-entity': {
    json: { status: 400, code: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' },
    query: { status: 404, code: 'NotFound', message: 'Topic does not exist' },
  },
  'bad-credentials': {
    json: { status: 400, code: 'com.amazon.coral.service#InvalidClientTokenId', message: 'The security token included in the request is invalid.' },
    query: { status: 403, code: 'InvalidClientTokenId', message: 'The security token included in the request is invalid.' },
  },
  throttled: {
    json: { status: 400, code: 'com.amazonaws.sqs#RequestThrottled', message: 'Rate exceeded' },
    query: { status: 400, code: 'Throttling', message: 'Rate exceeded' },
  },
  'server-error': {
    json: { status: 500, code: 'com.amazonaws.sqs#InternalError', message: 'We encountered an internal error.' },
    query: { status: 500, code: 'InternalError', message: 'We encountered an internal error.' },
  },
  'payload-too-large': {
    json: { status: 400, code: 'com.amazonaws.sqs#BatchRequestTooLong', message: 'Batch requests cannot be longer than 262144 bytes.' },
    query: { status: 400, code: 'BatchRequestTooLong', message: 'The length of all the messages put together is more than the limit.' },
  },
};

/** `Authorization: AWS4-HMAC-SHA256 Credential=<access key id>/<date>/<region>/<service>/aws4_request, …`. */
const SIGNING_KEY = /\bCredential=([^/,\s]+)\//;

export async function startAwsFaultProxy(target: string, protocol: AwsProtocol): Promise<AwsFaultProxy> {
  const faults = new FaultSchedule();
  const targetUrl = new URL(target);
  const sockets = new Set<Socket>();
  const forwardedBatchSizes: number[] = [];
  const receivedBatchSizes: number[] = [];
  const signingAccessKeyIds: string[] = [];
  let failNext: readonly number[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, protocol, { status: 500, code: 'ProxyBug', message: String(error) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const signedWith = SIGNING_KEY.exec(req.headers.authorization ?? '')?.[1];
    if (signedWith !== undefined) signingAccessKeyIds.push(signedWith);
    const fault = faults.take();
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'drop-connection') {
      req.socket.destroy();
      return;
    }
    if (fault !== undefined) return sendError(res, protocol, FAULT_ANSWERS[fault.kind][protocol]);

    const batch = protocol === 'json' ? jsonBatch(body) : queryBatch(body);
    let forwardBody = body;
    let failedIds: string[] = [];
    if (batch !== undefined) {
      receivedBatchSizes.push(batch.ids.length);
      const failing = new Set(failNext);
      failNext = [];
      failedIds = batch.ids.filter((_, index) => failing.has(index));
      forwardBody = failedIds.length > 0 ? batch.without(failing) : body;
      forwardedBatchSizes.push(batch.ids.length - failedIds.length);
    }
    const upstream = await forward(req, forwardBody);
    let answer = upstream.body;
    if (failedIds.length > 0) answer = protocol === 'json' ? addJsonFailures(answer, failedIds) : addQueryFailures(answer, failedIds);
    res.writeHead(upstream.status, { ...upstream.headers, 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  }

  function forward(req: IncomingMessage, body: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'content-length' && key !== 'host') headers[key] = value;
      }
      headers['content-length'] = String(Buffer.byteLength(body));
      const upstream = httpRequest({ host: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers }, (response) => {
        readBody(response).then((text) => {
          const out: Record<string, string> = {};
          for (const [key, value] of Object.entries(response.headers)) {
            if (typeof value === 'string' && key !== 'content-length' && key !== 'transfer-encoding') out[key] = value;
          }
          resolve({ status: response.statusCode ?? 502, headers: out, body: text });
        }, reject);
      });
      upstream.on('error', reject);
      upstream.end(body);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    faults,
    forwardedBatchSizes,
    receivedBatchSizes,
    signingAccessKeyIds,
    failEntries(indices) {
      failNext = [...indices];
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendError(res: ServerResponse, protocol: AwsProtocol, answer: ErrorAnswer): void {
  if (protocol === 'json') {
    const text = JSON.stringify({ __type: answer.code, message: answer.message });
    const shortCode = answer.code.split('#').pop() ?? answer.code;
    res.writeHead(answer.status, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-query-error': `${shortCode};Sender`,
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
    return;
  }
  const type = answer.status >= 500 ? 'Receiver' : 'Sender';
  const text = `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>${type}</Type><Code>${answer.code}</Code><Message>${answer.message}</Message></Error><RequestId>proxy</RequestId></ErrorResponse>`;
  res.writeHead(answer.status, { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

interface BatchView {
  ids: string[];
  without(positions: ReadonlySet<number>): string;
}

/** SQS SendMessageBatch (JSON 1.0): `{"QueueUrl", "Entries": [{Id, MessageBody}]}`. */
function jsonBatch(body: string): BatchView | undefined {
  let parsed: { Entries?: { Id: string }[] };
  try {
    parsed = JSON.parse(body) as { Entries?: { Id: string }[] };
  } catch {
    return undefined;
  }
  const entries = parsed.Entries;
  if (!Array.isArray(entries)) return undefined;
  return {
    ids: entries.map((entry) => entry.Id),
    without: (positions) => JSON.stringify({ ...parsed, Entries: entries.filter((_, index) => !positions.has(index)) }),
  };
}

const QUERY_MEMBER = /^PublishBatchRequestEntries\.member\.(\d+)\.(.+)$/;

/** SNS PublishBatch (query): `PublishBatchRequestEntries.member.N.Id=…`, N from 1. */
function queryBatch(body: string): BatchView | undefined {
  const params = new URLSearchParams(body);
  if (params.get('Action') !== 'PublishBatch') return undefined;
  const members = new Map<number, [string, string][]>();
  const others: [string, string][] = [];
  for (const [key, value] of params) {
    const match = QUERY_MEMBER.exec(key);
    if (match === null) {
      others.push([key, value]);
      continue;
    }
    const n = Number(match[1]);
    const list = members.get(n) ?? [];
    list.push([match[2] ?? '', value]);
    members.set(n, list);
  }
  const ordered = [...members.entries()].sort(([a], [b]) => a - b).map(([, fields]) => fields);
  return {
    ids: ordered.map((fields) => fields.find(([name]) => name === 'Id')?.[1] ?? ''),
    without: (positions) => {
      const out = new URLSearchParams(others);
      let n = 0;
      ordered.forEach((fields, index) => {
        if (positions.has(index)) return;
        n += 1;
        for (const [name, value] of fields) out.append(`PublishBatchRequestEntries.member.${n}.${name}`, value);
      });
      return out.toString();
    },
  };
}

function addJsonFailures(body: string, ids: readonly string[]): string {
  const parsed = JSON.parse(body) as { Successful?: unknown[]; Failed?: unknown[] };
  const failed = ids.map((Id) => ({ Id, SenderFault: false, Code: 'InternalError', Message: 'Injected server fault' }));
  return JSON.stringify({ ...parsed, Failed: [...(parsed.Failed ?? []), ...failed] });
}

function addQueryFailures(body: string, ids: readonly string[]): string {
  const members = ids
    .map((id) => `<member><Id>${id}</Id><Code>InternalError</Code><Message>Injected server fault</Message><SenderFault>false</SenderFault></member>`)
    .join('');
  return body.includes('<Failed>') ? body.replace('<Failed>', `<Failed>${members}`) : body.replace('<Failed/>', `<Failed>${members}</Failed>`);
}
