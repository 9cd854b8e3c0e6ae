import type { LambdaClient } from '@aws-sdk/client-lambda';
import { extensionBadResponse, extensionNoResponse, type ExtensionIdentity } from '../errors.js';
import { lambdaOutcome, type ExtensionOutcome } from './answer.js';
import { isDeadline } from './http-call.js';

export interface LambdaCall {
  arn: string;
  accessKey: string;
  accessSecret: string;
  body: string;
  correlationId: string;
  timeoutMs: number;
}

/** Where Lambda calls go: AWS by default; a local Lambda-compatible peer in tests. */
export interface LambdaOptions {
  endpoint?: string;
}

/** `arn:aws:lambda:<region>:…` → the region the client must sign for. */
const regionOf = (arn: string): string => arn.split(':')[3] ?? 'us-east-1';

/**
 * One SDK client per region and access key, made on first use: the SDK is loaded only by a gateway
 * whose project has a Lambda Extension. Failed requests are not retried: the Extension's timeout is
 * the whole budget of the call.
 */
export class LambdaInvoker {
  private readonly clients = new Map<string, Promise<LambdaClient>>();

  constructor(private readonly options: LambdaOptions = {}) {}

  private client(region: string, accessKeyId: string, secretAccessKey: string): Promise<LambdaClient> {
    const id = `${region}\u0000${accessKeyId}\u0000${secretAccessKey}`;
    let client = this.clients.get(id);
    if (client === undefined) {
      const { endpoint } = this.options;
      client = import('@aws-sdk/client-lambda').then(
        ({ LambdaClient }) =>
          new LambdaClient({ region, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1, ...(endpoint === undefined ? {} : { endpoint }) }),
      );
      this.clients.set(id, client);
    }
    return client;
  }

  async invoke(extension: ExtensionIdentity, call: LambdaCall): Promise<ExtensionOutcome> {
    const { InvokeCommand } = await import('@aws-sdk/client-lambda');
    const client = await this.client(regionOf(call.arn), call.accessKey, call.accessSecret);
    try {
      const result = await client.send(
        new InvokeCommand({
          FunctionName: call.arn,
          InvocationType: 'RequestResponse',
          Payload: Buffer.from(call.body),
          ClientContext: clientContext(call.correlationId),
        }),
        {
          abortSignal: AbortSignal.timeout(call.timeoutMs),
        },
      );
      const body = Buffer.from(result.Payload ?? new Uint8Array()).toString('utf8');
      if (result.FunctionError !== undefined)
        return { ok: false, error: extensionBadResponse(extension, `the function failed (${result.FunctionError})`, { body }) };
      return lambdaOutcome(extension, body);
    } catch (error) {
      return { ok: false, error: failure(extension, error, call.timeoutMs) };
    }
  }

  close(): void {
    for (const client of this.clients.values()) void client.then((made) => made.destroy());
    this.clients.clear();
  }
}

/** §4.4.10 for functions: the correlation id travels in the invocation's client context (`context.clientContext.custom`). */
const clientContext = (correlationId: string): string => Buffer.from(JSON.stringify({ custom: { 'X-Correlation-ID': correlationId } })).toString('base64');

/** The service answered (an HTTP status): a bad response; no answer at all: no response. */
function failure(extension: ExtensionIdentity, error: unknown, timeoutMs: number) {
  if (isDeadline(error)) return extensionNoResponse(extension, `no answer within ${timeoutMs} ms`);
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status === undefined) return extensionNoResponse(extension, 'the function could not be reached');
  const name = error instanceof Error ? error.name : 'Error';
  return extensionBadResponse(extension, `AWS Lambda answered ${status} ${name}`, { statusCode: status });
}
