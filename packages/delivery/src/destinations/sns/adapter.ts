import type { SnsDestination } from '@herald/model';
import { awsSendClientOptions, lazyAwsClient } from '../aws/client.js';
import { awsClientCredentials } from '../aws/credentials.js';
import { awsBatchResults, classifyAwsError } from '../aws/errors.js';
import { defineAdapter } from '../define-adapter.js';
import type { DestinationEnvironment } from '../environment.js';
import type { DestinationAdapter } from '../port.js';
import { SNS_ERROR_CODES } from './classify.js';
import { regionOfTopicArn } from './topic-arn.js';
import { encodeSns, SNS_LIMITS, type SnsNativeMessage } from './encode.js';

/** Nothing to verify beyond what the test notification's publish proves (§4.2 rule 1). */
export function createSnsAdapter(destination: SnsDestination, env: DestinationEnvironment): DestinationAdapter<SnsNativeMessage> {
  return defineAdapter({
    type: 'SNS',
    limits: SNS_LIMITS,
    env,
    client: lazyAwsClient(async () => {
      const sdk = await import('@aws-sdk/client-sns');
      const endpoint = env.endpoints.sns;
      const client = new sdk.SNSClient({
        // Validation guarantees a parseable ARN; the fallback only keeps the type honest.
        region: regionOfTopicArn(destination.topicArn) ?? 'us-east-1',
        ...awsClientCredentials(destination),
        ...(endpoint === undefined ? {} : { endpoint }),
        ...awsSendClientOptions(env.timeouts.sendMs),
      });
      return { sdk, client };
    }),
    encode: (payload, format) => encodeSns(payload, format, env),
    classify: (error) => classifyAwsError(error, SNS_ERROR_CODES),
    sendRequest: async ({ sdk, client }, messages) => {
      const response = await client.send(
        new sdk.PublishBatchCommand({
          TopicArn: destination.topicArn,
          PublishBatchRequestEntries: messages.map((message, index) => ({
            Id: String(index),
            Message: message.native.message,
          })),
        }),
      );
      return awsBatchResults(messages.length, response.Failed, SNS_ERROR_CODES);
    },
  });
}
