import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryPayload, Format, SqsDestination } from '@herald/model';
import { classifyAwsEntryError, classifyAwsError } from '../aws/errors.js';
import { isAwsHost } from '../aws/endpoint.js';
import type { DestinationEnvironment } from '../environment.js';
import { abortFailure, failure } from '../failure.js';
import type {
  DestinationAdapter,
  EncodeContext,
  EncodedMessage,
  EncodeResult,
  SendOptions,
  SendOutcome,
  VerifyContext,
  VerifyOutcome,
} from '../port.js';
import { deadlineSignal, ENTRY_DELIVERED, raceAbort, sendWithResends, type EntryResult } from '../send-loop.js';
import { SQS_ERROR_CODES } from './classify.js';
import { encodeSqs, SQS_LIMITS, type SqsNativeMessage } from './encode.js';

type SqsSdk = typeof import('@aws-sdk/client-sqs');

/** §2.4: only standard queues with the default maximum message size are supported. */
const REQUIRED_MAXIMUM_MESSAGE_SIZE = '262144';
const SEND_ONLY_DENIALS: readonly string[] = ['AccessDenied', 'AccessDeniedException'];

/**
 * The endpoint the SQS client talks to: the injected override, else the queue URL's own origin when
 * it is not an AWS host (a local peer or emulator), else the SDK's regional default.
 */
export function sqsEndpoint(queueUrl: string, env: DestinationEnvironment): string | undefined {
  if (env.endpoints.sqs !== undefined) return env.endpoints.sqs;
  const url = new URL(queueUrl);
  return isAwsHost(url.hostname) ? undefined : url.origin;
}

export class SqsAdapter implements DestinationAdapter<SqsNativeMessage> {
  readonly type = 'SQS';
  readonly limits = SQS_LIMITS;
  private client: Promise<{ sdk: SqsSdk; client: SQSClient }> | undefined;
  /** A passed check is kept for the adapter's lifetime; a failed one is checked again next time. */
  private verified = false;

  constructor(
    private readonly destination: SqsDestination,
    private readonly env: DestinationEnvironment,
  ) {}

  encode(payload: DeliveryPayload, format: Format, _context: EncodeContext): EncodeResult<SqsNativeMessage> {
    return encodeSqs(payload, format, this.env);
  }

  async send(batch: readonly EncodedMessage<SqsNativeMessage>[], options?: SendOptions): Promise<SendOutcome[]> {
    return sendWithResends(batch, options, this.env, this.limits, {
      classify: (error) => classifyAwsError(error, SQS_ERROR_CODES),
      sendRequest: async (messages, signal) => {
        const { sdk, client } = await this.sdkClient();
        const response = await client.send(
          new sdk.SendMessageBatchCommand({
            QueueUrl: this.destination.queueUrl,
            Entries: messages.map((message, index) => ({ Id: String(index), MessageBody: message.native.body })),
          }),
          { abortSignal: signal },
        );
        const results: EntryResult[] = messages.map(() => ENTRY_DELIVERED);
        for (const entry of response.Failed ?? []) {
          const index = Number(entry.Id);
          if (Number.isInteger(index) && index >= 0 && index < results.length) {
            results[index] = { status: 'failed', ...classifyAwsEntryError(entry, SQS_ERROR_CODES) };
          }
        }
        return results;
      },
    });
  }

  /** §2.4: a FIFO queue, or one whose MaximumMessageSize is not 262144, is a configuration error. */
  async verify(_context: VerifyContext, options?: SendOptions): Promise<VerifyOutcome> {
    if (this.verified) return { ok: true };
    if (this.destination.queueUrl.endsWith('.fifo')) return { ok: false, failure: fifoFailure() };
    const signal = deadlineSignal(options, this.env);
    try {
      const { sdk, client } = await this.sdkClient();
      const response = await raceAbort(
        client.send(
          new sdk.GetQueueAttributesCommand({
            QueueUrl: this.destination.queueUrl,
            AttributeNames: ['FifoQueue', 'MaximumMessageSize'],
          }),
          { abortSignal: signal },
        ),
        signal,
      );
      const attributes = response.Attributes ?? {};
      if (attributes.FifoQueue === 'true') return { ok: false, failure: fifoFailure() };
      const maxSize = attributes.MaximumMessageSize;
      if (maxSize !== undefined && maxSize !== REQUIRED_MAXIMUM_MESSAGE_SIZE) {
        return {
          ok: false,
          failure: failure(
            'configuration',
            'UnsupportedMaximumMessageSize',
            `The queue's MaximumMessageSize is ${maxSize}; it must be the default ${REQUIRED_MAXIMUM_MESSAGE_SIZE} bytes`,
          ),
        };
      }
      this.verified = true;
      return { ok: true };
    } catch (error) {
      const classified = abortFailure(signal, error) ?? classifyAwsError(error, SQS_ERROR_CODES);
      // §2.4 advises credentials with send permission only; they may not read attributes. Then the
      // check cannot be made (the send itself still proves queue and credentials), so let it pass.
      if (SEND_ONLY_DENIALS.includes(classified.code)) {
        this.env.logger.warn({ code: classified.code }, 'cannot read SQS queue attributes; FIFO/size check skipped');
        return { ok: true };
      }
      return { ok: false, failure: classified };
    }
  }

  async close(): Promise<void> {
    const pending = this.client;
    this.client = undefined;
    if (pending !== undefined) (await pending).client.destroy();
  }

  private sdkClient(): Promise<{ sdk: SqsSdk; client: SQSClient }> {
    this.client ??= (async () => {
      const sdk = await import('@aws-sdk/client-sqs');
      const endpoint = sqsEndpoint(this.destination.queueUrl, this.env);
      const client = new sdk.SQSClient({
        region: this.destination.region,
        credentials: { accessKeyId: this.destination.accessKey, secretAccessKey: this.destination.accessSecret },
        ...(endpoint === undefined ? {} : { endpoint }),
        useQueueUrlAsEndpoint: false,
        // The engine owns retrying (§6.2 retry windows); one attempt per request here.
        maxAttempts: 1,
      });
      return { sdk, client };
    })();
    return this.client;
  }
}

function fifoFailure() {
  return failure('configuration', 'FifoQueueNotSupported', 'FIFO queues are not supported; use a standard queue');
}

export function createSqsAdapter(destination: SqsDestination, env: DestinationEnvironment): SqsAdapter {
  return new SqsAdapter(destination, env);
}
