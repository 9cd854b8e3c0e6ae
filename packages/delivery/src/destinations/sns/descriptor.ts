import { HERALD_VARIABLES } from '@herald/model';
import { answerAwsAuthentication, checkAwsAuthentication } from '../aws/authentication.js';
import { defineDestination, EVERY_FORMAT } from '../descriptor.js';
import { createSnsAdapter } from './adapter.js';
import { SNS_LIMITS } from './encode.js';
import { regionOfTopicArn } from './topic-arn.js';

/** §2.4 SNS: a topic, with the destination's keys or Herald's own AWS identity (IAM). */
export const SNS_DESTINATION = defineDestination({
  type: 'SNS',
  aliases: [],
  normalize: (fields) => {
    const topicArn = fields.string('topicArn');
    if (topicArn !== '') {
      fields.check(
        regionOfTopicArn(topicArn) !== undefined,
        `destination.topicArn: '${topicArn}' is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).`,
      );
    }
    return { type: 'SNS', topicArn, ...checkAwsAuthentication(fields) };
  },
  // Absent in IAM mode: Herald's own identity, no keys stored with the destination.
  secretFields: [{ field: 'accessSecret' }],
  formats: EVERY_FORMAT,
  limits: SNS_LIMITS,
  endpointOverride: { option: 'sns', variable: HERALD_VARIABLES.snsEndpoint },
  answer: answerAwsAuthentication,
  createAdapter: createSnsAdapter,
});
