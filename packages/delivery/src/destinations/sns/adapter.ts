import type { SNSClient } from '@aws-sdk/client-sns';
import type { DeliveryPayload, Format, SnsDestination } from '@herald/model';
import { classifyAwsEntryError, classifyAwsError } from '../aws/errors.js';
import type { DestinationEnvironment } from '../environment.js';
import type {
  DestinationAdapter,
  EncodeContext,
  EncodedMessage,
  EncodeResult,
  SendOptions,
  SendOutcome,
  VerifyOutcome,
} from '../port.js';
import { ENTRY_DELIVERED, sendWithResends, type EntryResult } from '../send-loop.js';
import { SNS_ERROR_CODES } from './classify.js';
import { regionOfTopicArn } from './topic-arn.js';
import { encodeSns, SNS_LIMITS, type SnsNativeMessage } from './encode.js';

type SnsSdk = typeof import('@aws-sdk/client-sns');

export class SnsAdapter implements DestinationAdapter<SnsNativeMessage> {
  readonly type = 'SNS';
  readonly limits = SNS_LIMITS;
  private client: Promise<{ sdk: SnsSdk; client: SNSClient }> | undefined;

  constructor(
    private readonly destination: SnsDestination,
    private readonly env: DestinationEnvironment,
  ) {}

  encode(payload: DeliveryPayload, format: Format, _context: EncodeContext): EncodeResult<SnsNativeMessage> {
    return encodeSns(payload, format, this.env);
  }

  async send(batch: readonly EncodedMessage<SnsNativeMessage>[], options?: SendOptions): Promise<SendOutcome[]> {
    return sendWithResends(batch, options, this.env, this.limits, {
      classify: (error) => classifyAwsError(error, SNS_ERROR_CODES),
      sendRequest: async (messages, signal) => {
        const { sdk, client } = await this.sdkClient();
        const response = await client.send(
          new sdk.PublishBatchCommand({
            TopicArn: this.destination.topicArn,
            PublishBatchRequestEntries: messages.map((message, index) => ({
              Id: String(index),
              Message: message.native.message,
            })),
          }),
          { abortSignal: signal },
        );
        const results: EntryResult[] = messages.map(() => ENTRY_DELIVERED);
        for (const entry of response.Failed ?? []) {
          const index = Number(entry.Id);
          if (Number.isInteger(index) && index >= 0 && index < results.length) {
            results[index] = { status: 'failed', ...classifyAwsEntryError(entry, SNS_ERROR_CODES) };
          }
        }
        return results;
      },
    });
  }

  /** Nothing to check beyond what the test notification's publish proves (§4.2 rule 1). */
  verify(): Promise<VerifyOutcome> {
    return Promise.resolve({ ok: true });
  }

  async close(): Promise<void> {
    const pending = this.client;
    this.client = undefined;
    if (pending !== undefined) (await pending).client.destroy();
  }

  private sdkClient(): Promise<{ sdk: SnsSdk; client: SNSClient }> {
    this.client ??= (async () => {
      const sdk = await import('@aws-sdk/client-sns');
      const endpoint = this.env.endpoints.sns;
      const client = new sdk.SNSClient({
        // Validation guarantees a parseable ARN; the fallback only keeps the type honest.
        region: regionOfTopicArn(this.destination.topicArn) ?? 'us-east-1',
        credentials: { accessKeyId: this.destination.accessKey, secretAccessKey: this.destination.accessSecret },
        ...(endpoint === undefined ? {} : { endpoint }),
        maxAttempts: 1,
      });
      return { sdk, client };
    })();
    return this.client;
  }
}

export function createSnsAdapter(destination: SnsDestination, env: DestinationEnvironment): SnsAdapter {
  return new SnsAdapter(destination, env);
}
