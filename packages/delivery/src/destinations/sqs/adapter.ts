import type { SqsDestination } from '@herald/model';
import { awsSendClientOptions, lazyAwsClient } from '../aws/client.js';
import { awsClientCredentials } from '../aws/credentials.js';
import { awsBatchResults, classifyAwsError } from '../aws/errors.js';
import { isAwsHost } from '../aws/endpoint.js';
import { defineAdapter } from '../define-adapter.js';
import type { DestinationEnvironment } from '../environment.js';
import { abortFailure, failure } from '../failure.js';
import type { DestinationAdapter, SendOptions, VerifyOutcome } from '../port.js';
import { raceAbort, withDeadline } from '../send-loop.js';
import { SQS_ERROR_CODES } from './classify.js';
import { encodeSqs, SQS_LIMITS, type SqsNativeMessage } from './encode.js';

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

export function createSqsAdapter(destination: SqsDestination, env: DestinationEnvironment): DestinationAdapter<SqsNativeMessage> {
  const client = lazyAwsClient(async () => {
    const sdk = await import('@aws-sdk/client-sqs');
    const endpoint = sqsEndpoint(destination.queueUrl, env);
    const client = new sdk.SQSClient({
      region: destination.region,
      ...awsClientCredentials(destination),
      ...(endpoint === undefined ? {} : { endpoint }),
      useQueueUrlAsEndpoint: false,
      ...awsSendClientOptions(env.timeouts.sendMs),
    });
    return { sdk, client };
  });
  /** A passed check is kept for the adapter's lifetime; a failed one is checked again next time. */
  let verified = false;

  /** §2.4: a FIFO queue, or one whose MaximumMessageSize is not 262144, is a configuration error. */
  async function verify(options: SendOptions | undefined): Promise<VerifyOutcome> {
    if (verified) return { ok: true };
    if (destination.queueUrl.endsWith('.fifo')) return { ok: false, failure: fifoFailure() };
    return withDeadline(options, env, (signal) => readQueueAttributes(signal));
  }

  async function readQueueAttributes(signal: AbortSignal): Promise<VerifyOutcome> {
    try {
      const { sdk, client: sqs } = await client.get();
      const response = await raceAbort(
        sqs.send(
          new sdk.GetQueueAttributesCommand({
            QueueUrl: destination.queueUrl,
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
      verified = true;
      return { ok: true };
    } catch (error) {
      const classified = abortFailure(signal, error) ?? classifyAwsError(error, SQS_ERROR_CODES);
      // §2.4 advises credentials with send permission only; they may not read attributes. Then the
      // check cannot be made (the send itself still proves queue and credentials), so let it pass.
      if (SEND_ONLY_DENIALS.includes(classified.code)) {
        env.logger.warn({ code: classified.code }, 'cannot read SQS queue attributes; FIFO/size check skipped');
        return { ok: true };
      }
      return { ok: false, failure: classified };
    }
  }

  return defineAdapter({
    type: 'SQS',
    limits: SQS_LIMITS,
    env,
    client,
    encode: (payload, format) => encodeSqs(payload, format, env),
    classify: (error) => classifyAwsError(error, SQS_ERROR_CODES),
    sendRequest: async ({ sdk, client: sqs }, messages) => {
      const response = await sqs.send(
        new sdk.SendMessageBatchCommand({
          QueueUrl: destination.queueUrl,
          Entries: messages.map((message, index) => ({ Id: String(index), MessageBody: message.native.body })),
        }),
      );
      return awsBatchResults(messages.length, response.Failed, SQS_ERROR_CODES);
    },
    verify: (_context, options) => verify(options),
  });
}

function fifoFailure() {
  return failure('configuration', 'FifoQueueNotSupported', 'FIFO queues are not supported; use a standard queue');
}
